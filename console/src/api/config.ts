import { useEffect, useState } from 'react';
import type { ConsoleConfig } from '../../../src/schemas/console-config.js';

export type { ConsoleConfig };

let pending: Promise<ConsoleConfig | undefined> | undefined;

/**
 * The server's console config (where its gateway listens), read once per page load. A failed
 * read is forgotten, so the next page asks again (the server may have been down).
 */
function loadConfig(): Promise<ConsoleConfig | undefined> {
  pending ??= fetch(new URL('/console/config.json', window.location.origin), { cache: 'no-store' })
    .then((res) => (res.ok ? (res.json() as Promise<ConsoleConfig>) : undefined))
    .catch(() => undefined)
    .then((config) => {
      if (!config) pending = undefined;
      return config;
    });
  return pending;
}

/** The console config, undefined until read (or while it cannot be). */
export function useConsoleConfig(): ConsoleConfig | undefined {
  const [config, setConfig] = useState<ConsoleConfig>();
  useEffect(() => {
    let live = true;
    void loadConfig().then((c) => live && setConfig(c));
    return () => {
      live = false;
    };
  }, []);
  return config;
}
