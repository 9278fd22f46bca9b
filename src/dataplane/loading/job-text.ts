import type {
  DeleteStatementDef,
  LoadCondition,
  LoadingJobDef,
  LoadTarget,
  LoadValue,
  TextValue,
} from './job-types.js';

function valueText(v: LoadValue): string {
  switch (v.kind) {
    case 'column':
      return `$${v.index}`;
    case 'columnName':
      return `$${(v.path ?? [v.name]).map((k) => JSON.stringify(k)).join(':')}`;
    case 'skip':
      return '_';
    case 'literal':
      return JSON.stringify(v.value);
    case 'call':
      return `${v.fn}(${v.args.map(valueText).join(', ')})`;
    case 'split':
      return `SPLIT(${[valueText(v.arg), ...v.separators.map((s) => JSON.stringify(s))].join(', ')})`;
    case 'collection':
      return `${v.of}(${v.items.map(valueText).join(', ')})`;
    case 'pair':
      return `(${valueText(v.key)} -> ${valueText(v.value)})`;
    case 'tuple':
      return `${v.name}(${v.fields.map(valueText).join(', ')})`;
    case 'reduce':
      return `REDUCE(${v.fn}(${valueText(v.arg)}))`;
  }
}

/** A condition as GSQL, each operation in parentheses, so that it reads back as the same tree. */
function conditionText(c: LoadCondition): string {
  switch (c.kind) {
    case 'token':
      return valueText(c.value);
    case 'string':
      return JSON.stringify(c.value);
    case 'number':
      // A decimal literal stays one when read back (`2.0` is not the whole number 2).
      return !c.int && Number.isInteger(c.value) ? c.value.toFixed(1) : String(c.value);
    case 'call':
      return `${c.fn}(${c.args.map(conditionText).join(', ')})`;
    case 'unary':
      return `(${c.op === 'NOT' ? 'NOT ' : '-'}${conditionText(c.arg)})`;
    case 'binary':
      return `(${conditionText(c.left)} ${c.op} ${conditionText(c.right)})`;
    case 'is':
      return `(${conditionText(c.arg)} IS ${c.test})`;
    case 'in':
      return `(${conditionText(c.arg)} IN (${c.set.map(conditionText).join(', ')}))`;
    case 'between':
      return `(${conditionText(c.arg)} BETWEEN ${conditionText(c.low)} AND ${conditionText(c.high)})`;
  }
}

const whereText = (where: LoadCondition | undefined) => (where ? ` WHERE ${conditionText(where)}` : '');

/** An end's vertex type as written after its id: a name bare, a token as itself. */
const endTypeText = (v: TextValue | undefined) =>
  v === undefined ? '' : ` ${v.kind === 'literal' && /^[A-Za-z_]\w*$/.test(v.value) ? v.value : valueText(v)}`;

function targetText(t: LoadTarget): string {
  const values = t.values.map(
    (v, i) => valueText(v) + (i === 0 ? endTypeText(t.fromType) : i === 1 ? endTypeText(t.toType) : ''),
  );
  return `TO ${t.kind.toUpperCase()} ${t.type} VALUES (${values.join(', ')})${whereText(t.where)}`;
}

function deleteText(d: DeleteStatementDef): string {
  const what =
    d.kind === 'vertex'
      ? `VERTEX ${d.type} (PRIMARY_ID ${valueText(d.from)})`
      : d.kind === 'anyEdge'
        ? `EDGE * (FROM ${valueText(d.from)} ${d.type})`
        : `EDGE ${d.type} (FROM ${valueText(d.from)}${d.to ? `, TO ${valueText(d.to)}` : ''})`;
  return `DELETE ${what} FROM ${d.file}${whereText(d.where)};`;
}

/** A job as GSQL text, the way `SHOW JOB` prints it. */
export function jobText(job: LoadingJobDef): string {
  const body = [
    ...job.files.map((f) => `DEFINE FILENAME ${f.name}${f.path === undefined ? '' : ` = ${JSON.stringify(f.path)}`};`),
    ...job.loads.map((l) => {
      const targets = l.targets.map(targetText).join(', ');
      const o = l.options;
      const using = [
        `SEPARATOR=${JSON.stringify(o.separator)}`,
        `HEADER="${o.header}"`,
        `EOL=${JSON.stringify(o.eol)}`,
        ...(o.quote ? [`QUOTE="${o.quote === '"' ? 'double' : 'single'}"`] : []),
        ...(o.json ? ['JSON_FILE="true"'] : []),
      ].join(', ');
      return `LOAD ${l.file} ${targets} USING ${using};`;
    }),
    ...(job.deletes ?? []).map(deleteText),
  ];
  return `CREATE LOADING JOB ${job.name} FOR GRAPH ${job.graph} {\n${body.map((b) => `    ${b}`).join('\n')}\n  }`;
}
