import { Worker } from 'node:worker_threads';

/**
 * A worker thread running module `name` of this folder: the compiled file with plain node, or
 * the TypeScript source through tsx's loader when this module itself runs from the sources.
 */
export function startWorker(name: string, workerData?: unknown): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), { execArgv: [], workerData });
  const file = JSON.stringify(new URL(`./${name}.ts`, here).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then((api) => api.tsImport(${file}, ${JSON.stringify(here)}))`, {
    eval: true,
    execArgv: [],
    workerData,
  });
}
