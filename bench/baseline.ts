import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { root } from './server-process.js';

/** Handle on the node:http baseline child process. */
export interface Baseline {
  url: string;
  pid: number;
  /** Makes `path` answer with exactly these bytes. */
  serve(path: string, body: Buffer): Promise<void>;
  stop(): Promise<void>;
}

type Reply = { port?: number; registered?: string };

/** Runs in its own process so that it, like Acacia, has a core apart from the load generator. */
export async function startBaseline(): Promise<Baseline> {
  const child: ChildProcess = fork(path.join(root, 'bench/baseline-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => new Promise<Reply>((resolve) => child.once('message', (m) => resolve(m as Reply)));
  const { port } = await next();
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async serve(p, body) {
      const registered = next();
      child.send({ path: p, body: body.toString('base64') });
      await registered;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}
