import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import Ajv from 'ajv';
import { STATE_API_VERSION, STATE_KIND, StateFile } from '../../schemas/state-file.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { nameKey } from './read.js';

/** A state file that cannot be applied: the path in the file and why. */
export class StateFileError extends UsageError {
  constructor(
    readonly source: string,
    readonly at: string,
    readonly reason: string,
  ) {
    super(`${source}: ${at ? `${at}: ` : ''}${reason}`, exitCodes['Bad-Request']);
    this.name = 'StateFileError';
  }
}

/** `/workgroups/0/workspaces/1/name` → `workgroups[0].workspaces[1].name`. */
export function dottedPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/** Fields that would put a secret in the file; their `_env` form names a variable instead. */
const SECRET_FIELDS = new Set(['password', 'signing_secret', 'secret']);

function refuseSecrets(value: unknown, pointer: string, source: string): void {
  if (Array.isArray(value)) return value.forEach((v, i) => refuseSecrets(v, `${pointer}/${i}`, source));
  if (typeof value !== 'object' || value === null) return;
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_FIELDS.has(k))
      throw new StateFileError(
        source,
        dottedPath(`${pointer}/${k}`),
        `secrets are not written in the file: name the environment variable that holds it (${k}_env)`,
      );
    refuseSecrets(v, `${pointer}/${k}`, source);
  }
}

/** Names follow the API's rule, and are unique (ignoring case) among their siblings. */
function checkNames(state: StateFile, source: string): void {
  const unique = (names: string[], where: string, field: string) => {
    const seen = new Map<string, number>();
    names.forEach((n, i) => {
      const key = nameKey(n);
      const first = seen.get(key);
      if (first !== undefined)
        throw new StateFileError(source, `${where}[${i}].${field}`, `"${n}" is also ${where}[${first}]'s ${field}`);
      seen.set(key, i);
    });
  };
  // The API's rule for names (src/domain/names.ts), checked here so nothing is changed first.
  const named = (name: string, at: string) => {
    const normal = name.normalize('NFC');
    if (/[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/u.test(normal))
      throw new StateFileError(
        source,
        at,
        'must not contain control characters or bidirectional formatting characters',
      );
    if ([...normal].length > 64) throw new StateFileError(source, at, 'must be 1 to 64 characters long');
  };
  const wgs = state.workgroups ?? [];
  unique(
    wgs.map((w) => w.name),
    'workgroups',
    'name',
  );
  wgs.forEach((wg, i) => {
    named(wg.name, `workgroups[${i}].name`);
    const wss = wg.workspaces ?? [];
    unique(
      wss.map((w) => w.name),
      `workgroups[${i}].workspaces`,
      'name',
    );
    unique(
      (wg.allow_list ?? []).map((e) => e.cidr),
      `workgroups[${i}].allow_list`,
      'cidr',
    );
    wss.forEach((ws, j) => {
      const at = `workgroups[${i}].workspaces[${j}]`;
      named(ws.name, `${at}.name`);
      if (ws.database !== undefined) named(ws.database, `${at}.database`);
      unique(
        (ws.db_users ?? []).map((u) => u.username),
        `${at}.db_users`,
        'username',
      );
      const asUser = ws.graph?.as_user;
      if (asUser !== undefined && !(ws.db_users ?? []).some((u) => nameKey(u.username) === nameKey(asUser)))
        throw new StateFileError(source, `${at}.graph.as_user`, `"${asUser}" is not one of the workspace's db_users`);
    });
  });
  unique(
    (state.webhooks ?? []).map((w) => w.url),
    'webhooks',
    'url',
  );
}

// The file's shape, checked by the JSON Schema TypeBox declares: the first problem is reported.
const checkShape = new Ajv.default({ allErrors: false, strict: false }).compile(StateFile);

/** Checks a parsed document against the file's shape; the first problem names its path. */
export function validateState(doc: unknown, source: string): StateFile {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new StateFileError(source, '', `not a state file: expected a mapping with apiVersion: ${STATE_API_VERSION}`);
  const head = doc as Record<string, unknown>;
  if (head.apiVersion !== STATE_API_VERSION || head.kind !== STATE_KIND)
    throw new StateFileError(
      source,
      head.apiVersion !== STATE_API_VERSION ? 'apiVersion' : 'kind',
      `not an Acacia state file: expected apiVersion: ${STATE_API_VERSION} and kind: ${STATE_KIND}`,
    );
  refuseSecrets(doc, '', source);
  if (!checkShape(doc)) {
    const e = checkShape.errors![0]!;
    const p = e.params as Record<string, unknown>;
    const at = (child?: unknown) =>
      dottedPath(child === undefined ? e.instancePath : `${e.instancePath}/${String(child)}`);
    if (e.keyword === 'additionalProperties')
      throw new StateFileError(source, at(p.additionalProperty), 'is not a known field');
    if (e.keyword === 'required') throw new StateFileError(source, at(p.missingProperty), 'is required');
    if (e.keyword === 'enum')
      throw new StateFileError(source, at(), `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`);
    throw new StateFileError(source, at(), e.message ?? 'is not valid');
  }
  const state = doc as StateFile;
  checkNames(state, source);
  return state;
}

/** Parses YAML (or JSON, which is YAML) text into a checked state. */
export function parseState(text: string, source: string): StateFile {
  const parsed = parseDocument(text, { uniqueKeys: true });
  if (parsed.errors.length > 0) throw new StateFileError(source, '', `not valid YAML: ${parsed.errors[0]!.message}`);
  return validateState(parsed.toJS({ maxAliasCount: 100 }), source);
}

export function readState(file: string): StateFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return parseState(text, file);
}
