import { useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** Every page lives under this path; the server answers any of them with the app. */
export const BASE = '/console';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The path below /console, e.g. `/workgroups/abc`. */
function appPath(): string {
  const path = window.location.pathname;
  const below = path.startsWith(BASE) ? path.slice(BASE.length) : path;
  return below.replace(/\/+$/, '') || '/';
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, appPath);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = BASE + to;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

/** A link inside the console: a real anchor (middle-click, copy link), handled without a reload. */
export function Link({ to, ...props }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a {...props} href={BASE + to} onClick={onClick} />;
}

/** Matches `/workgroups/:wg` style patterns; the parameters, decoded, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

/** Sets the document title for the page shown. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Acacia console`;
  }, [title]);
}
