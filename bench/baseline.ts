import { forkServer } from './forked-server.js';

/** Handle on the node:http baseline child process. */
export interface Baseline {
  url: string;
  pid: number;
  /** Makes `path` answer with exactly these bytes. */
  serve(path: string, body: Buffer): Promise<void>;
  stop(): Promise<void>;
}

/** Runs in its own process so that it, like Acacia, has a core apart from the load generator. */
export async function startBaseline(): Promise<Baseline> {
  const server = await forkServer('baseline-server.ts');
  return {
    url: server.url,
    pid: server.pid,
    async serve(p, body) {
      const registered = new Promise((resolve) => server.child.once('message', resolve));
      server.child.send({ path: p, body: body.toString('base64') });
      await registered;
    },
    stop: () => server.stop(),
  };
}
