import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api } from './api/endpoints.js';
import { reportReachable } from './api/connectivity.js';
import { API_PREFIX, setSessionKey } from './api/http.js';
import type { Action, ApiKeyRecord, MetaRecord } from './api/types.js';
import { LiveFeed } from './live/feed.js';
import { can, type Target } from './permissions.js';

// The key lives in sessionStorage only: gone when the tab closes, never written to disk by
// the console, never sent anywhere but this origin's API.
const STORAGE_KEY = 'acacia.apiKey';

export interface Session {
  key: ApiKeyRecord;
  meta: MetaRecord | undefined;
  feed: LiveFeed;
  can(action: Action, target?: Target): boolean;
  signOut(reason?: string): void;
}

interface SessionState {
  session: Session | undefined;
  /** Reading a stored key back after a reload. */
  restoring: boolean;
  /** Why the last session ended, when it was not the user's choice. */
  endedBecause: string | undefined;
  signIn(plaintext: string): Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ plaintext: string; key: ApiKeyRecord; meta?: MetaRecord } | undefined>();
  const [restoring, setRestoring] = useState(() => storedKey() !== undefined);
  const [endedBecause, setEndedBecause] = useState<string>();

  const signOut = useCallback((reason?: string) => {
    sessionStorage.removeItem(STORAGE_KEY);
    setSessionKey(undefined);
    setState(undefined);
    setEndedBecause(reason);
  }, []);

  const begin = useCallback(
    async (plaintext: string) => {
      const key = await api.apiKeys.current({ headers: { 'x-api-key': plaintext } });
      sessionStorage.setItem(STORAGE_KEY, plaintext);
      setSessionKey(plaintext, (reason) => signOut(`Signed out: ${reason}.`));
      setEndedBecause(undefined);
      setState({ plaintext, key });
      const meta = await api.meta().catch(() => undefined);
      setState((s) => (s && s.plaintext === plaintext ? { ...s, meta } : s));
    },
    [signOut],
  );

  useEffect(() => {
    const stored = storedKey();
    if (!stored) return;
    begin(stored)
      .catch(() => signOut('Signed out: the stored API key is no longer accepted.'))
      .finally(() => setRestoring(false));
  }, [begin, signOut]);

  const plaintext = state?.plaintext;
  const feed = useMemo(
    () =>
      plaintext
        ? new LiveFeed({
            url: `${API_PREFIX}/events`,
            apiKey: plaintext,
            onUnauthorized: (reason) => signOut(`Signed out: ${reason}.`),
            onReachable: reportReachable,
          })
        : undefined,
    [plaintext, signOut],
  );
  useEffect(() => {
    feed?.start();
    return () => feed?.stop();
  }, [feed]);

  const session = useMemo<Session | undefined>(() => {
    if (!state || !feed) return undefined;
    const { key, meta } = state;
    return { key, meta, feed, can: (action, target) => can(key, action, target), signOut };
  }, [state, feed, signOut]);

  const value = useMemo<SessionState>(
    () => ({ session, restoring, endedBecause, signIn: begin }),
    [session, restoring, endedBecause, begin],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSessionState(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSessionState outside SessionProvider');
  return value;
}

/** The signed-in session; pages render only inside one. */
export function useSession(): Session {
  const { session } = useSessionState();
  if (!session) throw new Error('useSession without a session');
  return session;
}
