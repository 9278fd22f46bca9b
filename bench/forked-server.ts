import { fork, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import path from 'node:path';
import { root } from './server-process.js';

/** A reference server in a process of its own, so it, like Acacia, has a core apart from the load generator. */
export interface ForkedServer {
  child: ChildProcess;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Forks `script` (under bench/, run through tsx) and waits for the port it reports (see `listenForParent`). */
export async function forkServer(script: string, env?: NodeJS.ProcessEnv): Promise<ForkedServer> {
  const child = fork(path.join(root, 'bench', script), [], {
    execArgv: ['--import', 'tsx'],
    ...(env ? { env } : {}),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    void exited.then(() => reject(new Error(`${script} exited during start-up`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      child.disconnect();
      await exited;
    },
  };
}

/** In the forked script: listens on a free loopback port, tells the parent, and closes when the parent lets go. */
export function listenForParent(server: Server, close: () => Promise<void> = async () => undefined): void {
  process.on('disconnect', () => server.close(() => void close().then(() => process.exit(0))));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
  });
}
