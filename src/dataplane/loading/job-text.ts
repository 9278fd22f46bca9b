import type { LoadingJobDef, LoadValue } from './job-types.js';

function valueText(v: LoadValue): string {
  switch (v.kind) {
    case 'column':
      return `$${v.index}`;
    case 'columnName':
      return `$${JSON.stringify(v.name)}`;
    case 'skip':
      return '_';
    case 'literal':
      return JSON.stringify(v.value);
    case 'call':
      return `${v.fn}(${v.args.map(valueText).join(', ')})`;
  }
}

/** A job as GSQL text, the way `SHOW JOB` prints it. */
export function jobText(job: LoadingJobDef): string {
  const body = [
    ...job.files.map((f) => `DEFINE FILENAME ${f.name}${f.path === undefined ? '' : ` = ${JSON.stringify(f.path)}`};`),
    ...job.loads.map((l) => {
      const targets = l.targets
        .map((t) => `TO ${t.kind.toUpperCase()} ${t.type} VALUES (${t.values.map(valueText).join(', ')})`)
        .join(', ');
      const o = l.options;
      const using = [
        `SEPARATOR=${JSON.stringify(o.separator)}`,
        `HEADER="${o.header}"`,
        `EOL=${JSON.stringify(o.eol)}`,
        ...(o.quote ? [`QUOTE="${o.quote === '"' ? 'double' : 'single'}"`] : []),
      ].join(', ');
      return `LOAD ${l.file} ${targets} USING ${using};`;
    }),
  ];
  return `CREATE LOADING JOB ${job.name} FOR GRAPH ${job.graph} {\n${body.map((b) => `    ${b}`).join('\n')}\n  }`;
}
