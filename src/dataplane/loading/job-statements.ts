import { CatalogError } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import { dataFolder, DataFolderError, fileChunks, readablePath } from '../data-folder.js';
import { checkJob, filePlan } from './job-compile.js';
import { loadFile, type ObjectStatistics } from './job-load.js';
import { findJob, saveJob } from './job-store.js';
import { checkJobNameFree } from '../jobs.js';
import type { LoadingStatement } from './job-types.js';

/** Runs a loading-job statement of a GSQL request and returns what GSQL prints; CatalogError to refuse. */
export function runLoadingStatement(store: GraphStore, st: LoadingStatement, graph: string | undefined): string {
  switch (st.kind) {
    case 'createLoadingJob':
      checkJobNameFree(store, st.job.name);
      checkJob(store, st.job);
      saveJob(store, st.job);
      return `Successfully created loading jobs: [${st.job.name}].`;
    case 'runLoadingJob':
      return runJob(store, st.name, st.files, graph);
  }
}

function runJob(store: GraphStore, name: string, using: Record<string, string>, current: string | undefined): string {
  const job = findJob(store, name);
  if (!job) throw new CatalogError(`The job ${name} does not exist.`);
  if (current !== undefined && current !== job.graph)
    throw new CatalogError(`The job ${name} belongs to graph ${job.graph}, not to ${current}.`);
  const graph = checkJob(store, job);
  const unknown = Object.keys(using).find((f) => !job.files.some((d) => d.name === f));
  if (unknown !== undefined) throw new CatalogError(`The job ${name} defines no file variable ${unknown}.`);
  // Every path is checked before any file is loaded, so a refused path loads nothing.
  const files = job.files
    .filter((f) => job.loads.some((l) => l.file === f.name) || job.deletes?.some((d) => d.file === f.name))
    .map((f) => {
      const given = using[f.name] ?? f.path;
      if (given === undefined)
        throw new CatalogError(`No path is given for file variable ${f.name}: add USING ${f.name}="…".`);
      return { name: f.name, given, path: loadablePath(store, given) };
    });
  const lines = [`Loading job ${name} on graph ${job.graph}:`];
  for (const f of files) {
    const s = loadFile(store, graph, filePlan(job, f.name)!, fileChunks(f.path));
    const counts = (list: ObjectStatistics[]) => list.map((o) => `${o.typeName}: ${o.validObject}`).join(', ');
    const deleted = counts([...s.deleteVertex, ...s.deleteEdge]);
    lines.push(
      `  ${f.name} (${f.given}): ${s.validLine} lines loaded, ${s.rejectLine} rejected; ` +
        `objects ${counts([...s.vertex, ...s.edge]) || 'none'}${deleted ? `; deleted ${deleted}` : ''}`,
    );
  }
  return lines.join('\n');
}

/** Refusals of a path to load, in the words GSQL prints for them. */
const folderRefusals = {
  noFolder: (_file: string, folder: string) =>
    `The data folder ${folder} of this workspace does not exist; put the files to load there.`,
  outside: (file: string, folder: string) =>
    `The file ${file} is outside the data folder ${folder}: loading jobs read only from there.`,
  missing: (file: string, folder: string) => `The file ${file} does not exist in the data folder ${folder}.`,
  notFile: (file: string) => `The file ${file} is not a regular file.`,
};

function loadablePath(store: GraphStore, file: string): string {
  try {
    return readablePath(dataFolder(store), file);
  } catch (err) {
    if (err instanceof DataFolderError) throw new CatalogError(folderRefusals[err.reason](err.file, err.folder));
    throw err;
  }
}
