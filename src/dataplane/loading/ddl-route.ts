import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CatalogError } from '../catalog.js';
import { fileChunks, uploadFolder } from '../data-folder.js';
import type { GraphDef } from '../schema-types.js';
import { fail } from '../errors.js';
import { sendResults, type RequestContext } from '../http-server.js';
import { oneCharacter } from './job-parser.js';
import { checkJob, filePlan, type FilePlan } from './job-compile.js';
import { loadFile } from './job-load.js';
import { findJob } from './job-store.js';

/** What the body is called in the statistics: TigerGraph's name for data posted to `/ddl`. */
const POSTED = 'Online_POST';

function separatorParam(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  return oneCharacter(value) ?? fail('invalidParameter', `The parameter ${name} must be one character.`);
}

/**
 * `POST /ddl/{graph}?tag=job&filename=f[&sep=,][&eol=\n]`: runs loading job `tag` on the body
 * as the content of its file variable `filename`, as pyTigerGraph's `runLoadingJobWithData`
 * (and …WithFile, …WithDataFrame) send it.
 */
export async function postDdl(ctx: RequestContext): Promise<void> {
  const graph = ctx.store.graph(ctx.params.graph, ctx.path);
  const { tag, filename } = ctx.query;
  if (!tag) return fail('invalidParameter', 'The parameter tag (the loading job name) is required.');
  if (!filename) return fail('invalidParameter', "The parameter filename (the job's file variable) is required.");
  const separator = separatorParam(ctx.query.sep, 'sep');
  const eol = separatorParam(ctx.query.eol, 'eol');
  // Refused before a byte of the body is written; checked again after, as the job may change meanwhile.
  filePlanOf(ctx, graph, tag, filename);
  const folder = uploadFolder(ctx.store);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const upload = path.join(folder, randomUUID());
  try {
    await ctx.bodyToFile(upload, ctx.options.uploadLimit);
    const plan = filePlanOf(ctx, graph, tag, filename);
    let statistics;
    try {
      statistics = loadFile(ctx.store, graph, plan, fileChunks(upload), { separator, eol });
    } catch (err) {
      // A column the header does not have, or a value grown past its bound: nothing was written.
      if (err instanceof CatalogError) return fail('invalidParameter', err.message);
      throw err;
    }
    sendResults(ctx, [{ sourceFileName: POSTED, statistics: { sourceFileName: POSTED, ...statistics } }]);
  } finally {
    fs.rmSync(upload, { force: true });
  }
}

/** What loading job `tag` does with its file variable `filename`, refused when it cannot run on `graph`. */
function filePlanOf(ctx: RequestContext, graph: GraphDef, tag: string, filename: string): FilePlan {
  const job = findJob(ctx.store, tag);
  if (!job || job.graph !== graph.name)
    return fail('invalidParameter', `The loading job '${tag}' does not exist in graph '${graph.name}'.`);
  const plan = filePlan(job, filename);
  if (!plan) return fail('invalidParameter', `The loading job '${tag}' has no file variable '${filename}'.`);
  try {
    checkJob(ctx.store, job);
  } catch (err) {
    if (err instanceof CatalogError)
      return fail('invalidParameter', `The loading job '${tag}' no longer fits the schema: ${err.message}`);
    throw err;
  }
  return plan;
}
