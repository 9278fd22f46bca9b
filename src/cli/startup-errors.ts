import path from 'node:path';
import { ConfigError, settings, type Config } from '../config.js';
import { StoreUnreachable } from '../store/connection-loss.js';

/** `ACACIA_PORT (--port)`: the setting as both its names. */
function setting(env: string): string {
  const s = settings.find((x) => x.env === env);
  return s ? `${env} (--${s.flag})` : env;
}

type Coded = { code?: unknown; port?: unknown; path?: unknown; message?: unknown; cause?: unknown };

const FILE_CODES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a file is in the way of a directory',
  EEXIST: 'a file is in the way of a directory',
  ENOSPC: 'no space left on the device',
};

/** A PostgreSQL connection problem, in words, with what fixes it. */
function postgresProblem(err: Coded, config: Readonly<Config>): string {
  const url = new URL(config.databaseUrl!);
  const at = `${url.hostname}:${url.port || 5432}`;
  const database = decodeURIComponent(url.pathname.slice(1)) || url.username;
  const code = typeof err.code === 'string' ? err.code : '';
  const name = setting('DATABASE_URL');
  if (code === '3D000')
    return `${name}: database "${database}" does not exist on ${at}; create it (createdb ${database}) or name another`;
  if (code === '28P01' || code === '28000')
    return `${name}: PostgreSQL at ${at} refused the user or password; fix the credentials in the URL`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${name}: the host "${url.hostname}" is unknown; fix the host in the URL`;
  const why = code || String(err.message ?? 'no answer');
  return `${name}: cannot reach PostgreSQL at ${at} (${why}); start it, or fix the host and port in the URL`;
}

/**
 * One line for a start-up failure the operator can fix (a setting, a port, the store, the
 * data directory), naming the setting and the fix; undefined for anything else (a bug).
 */
export function startupProblem(err: unknown, config: Readonly<Config> | undefined): string | undefined {
  if (err instanceof ConfigError) {
    const name = setting(err.variable);
    return err.message.replace(err.variable, name);
  }
  if (!config) return undefined;
  const e = err as Coded;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(code) && e.port !== undefined) {
    const port = Number(e.port);
    if (code === 'EADDRNOTAVAIL')
      return (
        `${setting('ACACIA_HOST')}: ${config.host} is not an address ` +
        `of this machine; use one it has (127.0.0.1, 0.0.0.0)`
      );
    const which = port === config.port ? 'ACACIA_PORT' : 'ACACIA_GATEWAY_PORT';
    const why =
      code === 'EADDRINUSE' ? 'is in use by another process' : 'needs privileges this process lacks (ports below 1024)';
    return (
      `${setting(which)}: port ${port} on ${config.host} ${why}; ` +
      `stop what uses it or choose another port (0 picks a free one)`
    );
  }
  if (err instanceof StoreUnreachable && config.databaseUrl) return postgresProblem(err.cause as Coded, config);
  if (config.databaseUrl && /^(3D000|28P01|28000)$/.test(code)) return postgresProblem(e, config);
  const file = typeof e?.path === 'string' ? path.resolve(e.path) : undefined;
  // The directory itself, a file in it, or a parent that could not be made.
  const dir = config.dataDir;
  const related = !!file && (file === dir || file.startsWith(dir + path.sep) || dir.startsWith(file + path.sep));
  if (code in FILE_CODES && related)
    return (
      `${setting('ACACIA_DATA_DIR')}: ${config.dataDir} cannot be written (${FILE_CODES[code]}); ` +
      'choose a directory this user may write, or fix its permissions'
    );
  if (/^SQLITE_(CANTOPEN|READONLY|IOERR|PERM)/.test(code))
    return (
      `${setting('ACACIA_DATA_DIR')}: the store in ${config.dataDir} cannot be opened for writing (${code}); ` +
      'choose a directory this user may write, or fix its permissions'
    );
  return undefined;
}
