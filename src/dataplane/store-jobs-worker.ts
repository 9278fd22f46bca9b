/**
 * A worker thread of StoreJobs: runs the jobs it is sent, one at a time, and answers each
 * with its result or its error's name and message.
 */
import { parentPort } from 'node:worker_threads';
import { runStoreJob, type StoreJob } from './store-jobs-run.js';

parentPort!.on('message', (job: StoreJob) => {
  try {
    parentPort!.postMessage({ ok: true, value: runStoreJob(job) });
  } catch (err) {
    const { name, message } = err instanceof Error ? err : new Error(String(err));
    const code = (err as { code?: unknown }).code;
    parentPort!.postMessage({ ok: false, error: { name, message, ...(typeof code === 'string' ? { code } : {}) } });
  }
});
