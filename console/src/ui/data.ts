import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/http.js';
import type { WorkspaceRecord } from '../api/types.js';
import type { LiveEvent } from '../live/feed.js';
import { useSession } from '../session.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /**
   * Reads again; the data shown stays until the answer arrives (no flashing), and stays as
   * it was when no answer arrives (the server cannot be reached).
   */
  reload(): void;
}

/** One reload for the several loads that a change shows in (a workgroup, its entries, the caller's address). */
export function reloadAll(...loads: ReadonlyArray<Pick<Loaded<unknown>, 'reload'>>): () => void {
  return () => loads.forEach((l) => l.reload());
}

function asApiError(err: unknown): ApiError {
  return err instanceof ApiError ? err : new ApiError(0, [], err instanceof Error ? err.message : String(err));
}

/** Loads data for `key` (e.g. a workgroup id), again whenever the key changes or reload() is called. */
export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: ApiError }>({ key });
  const loader = useRef(load);
  loader.current = load;
  const generation = useRef(0);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    loader.current().then(
      (data) => mine === generation.current && setState({ key, data }),
      (err: unknown) => {
        if (mine !== generation.current) return;
        const error = asApiError(err);
        // Unreachable, or unable to serve for now (a server stopping answers 503), with data in
        // hand: the data stays, as it is (the shell's banner says it may be stale), and the next
        // reload replaces it once the server answers again.
        const passing = error.status === 0 || (error.status >= 502 && error.status <= 504);
        setState((s) => (passing && s.key === key && s.data !== undefined ? s : { ...s, key, error }));
      },
    );
  }, [key]);

  useEffect(reload, [reload]);
  const current = state.key === key;
  return { data: current ? state.data : undefined, error: current ? state.error : undefined, reload };
}

/**
 * Reloads when the live feed says something relevant changed: an event `relevant` accepts,
 * the stream (re)connecting, or every 3 s while there is no stream.
 */
export function useLive(relevant: (event: LiveEvent) => boolean, reload: () => void): void {
  const { feed } = useSession();
  const filter = useRef(relevant);
  filter.current = relevant;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Events come in bursts (an operation touches several records): one read per burst.
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(reload, 150);
    };
    const unsubscribe = feed.subscribe((signal) => {
      if (signal.kind !== 'event' || filter.current(signal.event)) soon();
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [feed, reload]);
}

/** useLoad kept current by the live feed. */
export function useLiveLoad<T>(key: string, load: () => Promise<T>, relevant: (event: LiveEvent) => boolean) {
  const loaded = useLoad(key, load);
  useLive(relevant, loaded.reload);
  return loaded;
}

/**
 * The records of one kind that a workspace holds (its schedules, its database users), kept
 * current by that workspace's events of that kind; `load` lists them by the workgroup's and
 * the workspace's ids.
 */
export function useWorkspaceRecords<T>(
  ws: Pick<WorkspaceRecord, 'workgroup_id' | 'workspace_id'>,
  kind: string,
  load: (workgroupId: string, workspaceId: string) => Promise<T>,
): Loaded<T> {
  const wg = ws.workgroup_id ?? '';
  const id = ws.workspace_id ?? '';
  return useLiveLoad(
    `${kind}:${id}`,
    () => load(wg, id),
    (e) => e.workspace_id === id && e.resource_kind === kind,
  );
}
