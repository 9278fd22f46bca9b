// Part of `npm run lint` (eslint.config.js): the layers of the code and what each may import,
// and no import cycles. docs/architecture.md explains the layers; this table is what holds them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Every layer: the files it is made of (a folder ends with /) and the layers it may import.
 * A file belongs to the layer whose path matches it longest, so a file named here is taken
 * out of its folder's layer. Imports within a layer are free; npm packages are not checked.
 */
export const layers = {
  // The workspace process: runs apart from the control plane and imports none of it.
  // Whether a process id runs: the data plane's launcher and the CLI's status and stop ask it.
  process: { files: ['src/process-alive.ts'], may: [] },
  dataplane: { files: ['src/dataplane/'], may: ['process'] },
  // Shapes of the API (TypeBox), of records and of the catalog.
  schemas: { files: ['src/schemas/'], may: [] },
  // IP addresses and ranges, for the store, the rules, the listeners and the settings.
  addresses: { files: ['src/addresses/'], may: [] },
  logger: { files: ['src/logger.ts'], may: [] },
  // Persistence: SQLite and PostgreSQL behind one interface.
  store: { files: ['src/store/'], may: ['schemas', 'addresses'] },
  // The rules, on the store.
  domain: { files: ['src/domain/'], may: ['store', 'schemas', 'addresses'] },
  // Lifecycle of workspaces and accounts, and the drivers that provision them.
  engine: { files: ['src/engine/'], may: ['domain', 'store', 'schemas', 'addresses', 'dataplane'] },
  // What the API and the gateway listen with alike: limits, timeouts, error statuses, the request log.
  listener: { files: ['src/listener/'], may: ['domain', 'store', 'schemas', 'addresses'] },
  http: { files: ['src/http/'], may: ['listener', 'domain', 'store', 'schemas', 'addresses', 'logger'] },
  gateway: {
    files: ['src/gateway/'],
    may: ['listener', 'domain', 'store', 'schemas', 'addresses', 'logger', 'dataplane'],
  },
  // Every setting (the driver names, the catalog's defaults and the log levels come from below).
  config: { files: ['src/config.ts'], may: ['engine', 'domain', 'schemas', 'addresses', 'logger'] },
  // The composition root, and the process's metrics it registers.
  main: {
    files: ['src/main.ts', 'src/metrics.ts'],
    may: [
      'config',
      ...['http', 'gateway', 'engine', 'listener', 'domain', 'store', 'schemas', 'addresses', 'logger', 'dataplane'],
    ],
  },
  // Talks to a server over HTTP: knows its shapes only.
  client: { files: ['src/client/'], may: ['schemas'] },
  // The `acacia` command talks HTTP through the client, and builds `acacia serve`'s flags from the settings.
  cli: { files: ['src/cli/'], may: ['cli in-process', 'client', 'schemas', 'config', 'process'] },
  // Its commands that run the server's code in this process: serve starts it, admin opens the store.
  'cli in-process': {
    files: ['src/cli/commands/serve.ts', 'src/cli/commands/admin.ts', 'src/cli/startup-errors.ts'],
    may: ['cli', 'client', 'schemas', 'config', 'main', 'http', 'listener', 'domain', 'store', 'process'],
  },
  // The web console, in the browser: the client and the shapes, as any client of the API.
  console: { files: ['console/'], may: ['client', 'schemas'] },
  // Tests in src/ may also use the suite's helpers.
  tests: { files: ['test/'], may: [] },
};

const entries = Object.entries(layers).flatMap(([name, layer]) => layer.files.map((prefix) => ({ prefix, name })));
entries.sort((a, b) => b.prefix.length - a.prefix.length);

/** The layer of a file (relative to the repository; a file's test is in its layer), or undefined outside every layer. */
export function layerOf(file) {
  const module = file.replace(/\.test\.ts$/, '.ts');
  return entries.find((e) => (e.prefix.endsWith('/') ? module.startsWith(e.prefix) : module === e.prefix))?.name;
}

const relative = (file) => path.relative(root, file).split(path.sep).join('/');

/** The module a relative specifier names, as a file of the repository (`.js` written for `.ts`). */
function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return base;
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

const layerRule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports point down the layers of scripts/eslint-layers.js' },
    schema: [],
  },
  create(context) {
    const file = relative(context.filename);
    const own = layerOf(file);
    if (own === undefined && file.startsWith('src/'))
      return {
        Program: (node) =>
          context.report({ node, message: `${file} is in no layer: give its folder one in scripts/eslint-layers.js` }),
      };
    if (own === undefined || own === 'tests') return {};
    const may = new Set([own, ...layers[own].may, ...(isTest(file) ? ['tests'] : [])]);
    const check = (node, source) => {
      const specifier = source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = layerOf(relative(resolve(context.filename, specifier)));
      if (target === undefined || may.has(target)) return;
      context.report({
        node: source,
        message:
          `${own} (${file}) may not import ${target} (${specifier}): the layers are in scripts/eslint-layers.js ` +
          `and docs/architecture.md; move what both need down, or pass it in from above`,
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

/** Static imports and re-exports, type-only ones too (a dynamic import() loads later, so makes no cycle). */
const STATIC_IMPORT = /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]/gm;

/** Each file's static relative imports, read once per run (and again when the file changes). */
const importsCache = new Map();
function importsOf(file) {
  const mtime = statSync(file).mtimeMs;
  const cached = importsCache.get(file);
  if (cached?.mtime === mtime) return cached.imports;
  const imports = [];
  for (const m of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
    const target = resolve(file, m[1] ?? m[2]);
    if (existsSync(target)) imports.push(target);
  }
  importsCache.set(file, { mtime, imports });
  return imports;
}

/** A path of imports from `from` back to `to`, or undefined. */
function pathBack(from, to) {
  const seen = new Set();
  const walk = (file, trail) => {
    if (file === to) return trail;
    if (seen.has(file)) return undefined;
    seen.add(file);
    for (const next of importsOf(file)) {
      const found = walk(next, [...trail, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(from, [from]);
}

const cycleRule = {
  meta: {
    type: 'problem',
    docs: { description: 'no module imports itself through others' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (!existsSync(file)) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolve(file, specifier);
      if (!existsSync(target)) return;
      const back = pathBack(target, file);
      if (back)
        context.report({
          node: node.source,
          message: `import cycle: ${[file, ...back].map(relative).join(' → ')}; move what both need into a module of its own`,
        });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default { rules: { layers: layerRule, 'no-cycles': cycleRule } };
