import { CatalogError } from './catalog.js';
import type { GraphStore } from './graph-store.js';
import { dropJobs as dropLoadingJobs, findJob, listJobs } from './loading/job-store.js';
import { jobText } from './loading/job-text.js';

/**
 * `DROP JOB` and `SHOW JOB` name loading jobs and schema change jobs alike: in GSQL both kinds
 * share one namespace, so a name is looked up in both and `ALL`/`*` take both.
 */

function schemaJobsOf(store: GraphStore, graph: string | undefined) {
  return [...store.catalog.jobs.values()].filter((j) => j.global || graph === undefined || j.graph === graph);
}

export function dropAnyJobs(store: GraphStore, names: string[], all: boolean, graph: string | undefined): string {
  if (all && graph === undefined) throw new CatalogError('DROP JOB ALL needs a graph: USE GRAPH first.');
  const schema: string[] = [];
  const loading: string[] = [];
  if (all) {
    schema.push(...schemaJobsOf(store, graph).map((j) => j.name));
    loading.push(...listJobs(store, graph).map((j) => j.name));
  } else {
    // Every name is checked before any job is dropped, so a refused request drops nothing.
    for (const name of names) {
      if (store.catalog.jobs.has(name)) schema.push(name);
      else if (findJob(store, name)) loading.push(name);
      else throw new CatalogError(`The job ${name} does not exist.`);
    }
  }
  if (loading.length > 0) dropLoadingJobs(store, loading, graph);
  if (schema.length > 0) store.dropJobs(schema);
  return `Successfully dropped jobs: [${[...schema, ...loading].join(', ')}].`;
}

export function showAnyJobs(store: GraphStore, name: string, graph: string | undefined): string {
  const schema = schemaJobsOf(store, graph).filter((j) => name === '*' || j.name === name);
  const loading = name === '*' ? listJobs(store, graph) : [findJob(store, name)].filter((j) => j !== undefined);
  if (name !== '*' && schema.length === 0 && loading.length === 0)
    throw new CatalogError(`The job ${name} does not exist.`);
  return [...schema.map((j) => j.text), ...loading.map((j) => `  - ${jobText(j)}`)].join('\n');
}

/** Refuses a job name that a loading job or a schema change job already has. */
export function checkJobNameFree(store: GraphStore, name: string): void {
  if (store.catalog.jobs.has(name) || findJob(store, name))
    throw new CatalogError(`The job name ${name} is already used.`);
}
