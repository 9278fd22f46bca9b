import { cleanEnv, storeEnv } from '../test/helpers/cli.js';
import type { StoreLocation } from '../test/helpers/store-location.js';
import { forkServer, type ForkedServer } from './forked-server.js';

/**
 * Starts the minimal store-backed server (bench/minimal-server.ts) on the store (and catalog)
 * an Acacia server of the run uses.
 */
export function startMinimal(store: StoreLocation, configFile: string): Promise<ForkedServer> {
  return forkServer('minimal-server.ts', { ...cleanEnv(), ...storeEnv(store), ACACIA_CONFIG: configFile });
}

/**
 * Throws unless both servers answer `path` with the same status and the same bytes: the
 * request id is fixed by `x-request-id`, the only part of an answer that differs by request.
 */
export async function assertSameBytes(
  acaciaUrl: string,
  minimalUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<Buffer> {
  const get = async (base: string) => {
    const res = await fetch(`${base}${path}`, { headers: { ...headers, 'x-request-id': 'bench-identity-check' } });
    return { status: res.status, etag: res.headers.get('etag'), body: Buffer.from(await res.arrayBuffer()) };
  };
  const [a, m] = [await get(acaciaUrl), await get(minimalUrl)];
  if (a.status !== 200 || m.status !== a.status || m.etag !== a.etag || !a.body.equals(m.body))
    throw new Error(
      `the minimal server's answer to GET ${path} differs from Acacia's: ` +
        `${a.status} ${a.etag} ${a.body.length} B vs ${m.status} ${m.etag} ${m.body.length} B\n` +
        `acacia:  ${a.body.toString().slice(0, 400)}\nminimal: ${m.body.toString().slice(0, 400)}`,
    );
  return a.body;
}
