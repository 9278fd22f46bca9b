import { MAX_BODY_DEPTH } from '../../src/http/json-body.js';
import { requestBytes, type RawHeaders, type RawOutcome } from './raw-http.js';
import { exampleOf, openObjectPaths, place, violationsOf, type Hints, type JsonSchema } from './schema-violations.js';
import type { SeededRandom } from './seeded-random.js';

interface OpenApiParameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** One operation of the published document: method, path template and its schemas. */
export interface Operation {
  method: string;
  path: string;
  params: OpenApiParameter[];
  body?: JsonSchema;
}

/** The document with every local `$ref` replaced by what it points at (the schemas have no cycles). */
export function resolveRefs<T>(doc: T): T {
  const root = doc as unknown;
  const target = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        root,
      );
  const walk = (node: unknown, depth: number): unknown => {
    if (depth > 64) throw new Error('$ref nesting too deep: a cycle?');
    if (Array.isArray(node)) return node.map((n) => walk(n, depth + 1));
    if (!node || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    const base = typeof $ref === 'string' && $ref.startsWith('#/') ? (walk(target($ref), depth + 1) as object) : {};
    const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v, depth + 1)]));
    return { ...base, ...own };
  };
  return walk(root, 0) as T;
}

export function operationsOf(
  document: { paths: Record<string, Record<string, OpenApiOperation>> },
  under: (path: string) => boolean,
): Operation[] {
  const doc = resolveRefs(document);
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!under(path)) continue;
    for (const [method, op] of Object.entries(ops)) {
      const body = op.requestBody?.content['application/json']?.schema;
      out.push({ method: method.toUpperCase(), path, params: op.parameters ?? [], ...(body ? { body } : {}) });
    }
  }
  return out;
}

/** What the response to a case must show beyond "a 4xx error envelope". */
export interface Expectation {
  status?: number;
  type?: string;
  field?: string;
  /** The X-Request-ID sent was unusable, so the server must have made up its own. */
  freshRequestId?: boolean;
}

export interface FuzzCase {
  op: string;
  label: string;
  request: Buffer;
  expect: Expectation;
}

export interface FuzzContext {
  host: string;
  apiKey: string;
  rng: SeededRandom;
  /** Known-good values by body property name, so the rest of a body stays valid. */
  hints: Hints;
  /** Path parameters that filter rather than name a resource: an unknown value is not an error. */
  filterParams: Set<string>;
  /** The id an operation's path parameter takes, so handlers get past their not-found checks. */
  paramValue(op: Operation, name: string): string;
}

const DEPTH = 10_000;
/** An array or object `depth` levels deep as JSON text. */
const deepArray = (depth = DEPTH) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth = DEPTH) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** Newlines a body is padded with, between its tokens and around it. */
const NEWLINES = 64 * 1024;
const DEEP_MARK = '@@deep@@';
const BAD_MARK = '@@bad-utf8@@';

/**
 * Byte sequences that are not UTF-8: a stray byte, a broken pair, an overlong form, a surrogate, beyond U+10FFFF, a
 * cut-off sequence.
 */
const invalidUtf8 = [
  [0xff],
  [0xc3, 0x28],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
].map((b) => Buffer.from(b));

const badJson = (text: string): Array<[string, string]> => [
  ['truncated', text.slice(0, Math.max(1, text.length - 1))],
  ['lone brace', '{'],
  ['trailing comma', text.replace(/}$/, ',}')],
  ['single quotes', "{'fuzz': 1}"],
  ['unquoted key', '{fuzz: 1}'],
  ['NaN', '{"fuzz": NaN}'],
  ['two documents', `${text}${text}`],
  ['raw control character', '{"fuzz": "a\u0001b"}'],
  ['comment', `${text} // comment`],
  ['leading zero', '{"fuzz": 01}'],
];

const wrongContentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/jsonx',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ERROR_TYPES = new Set(['Bad-Request', 'Unauthorized', 'Forbidden', 'Not-Found', 'Quota-Exceed', 'API-Disabled']);

/** Builds the requests of one operation: path with fixture ids, default headers, the schema-valid base body. */
interface Builder {
  op: Operation;
  ctx: FuzzContext;
  rng: SeededRandom;
  add(label: string, request: Buffer, expect?: Expectation): void;
  /** The path with fixture ids, and the operation's required query parameters unless `query` is false. */
  target(override?: Record<string, string>, query?: boolean): string;
  headers(extra?: RawHeaders, apiKey?: string | Buffer | null): RawHeaders;
  json(body: Buffer | string, extra?: RawHeaders, path?: string): Buffer;
  /** The request with nothing wrong in it but what `extra` or `path` add. */
  plain(extra?: RawHeaders, path?: string): Buffer;
  base: unknown;
  baseText: string;
}

function builderFor(op: Operation, ctx: FuzzContext, cases: FuzzCase[]): Builder {
  const name = `${op.method} ${op.path}`;
  // Required query parameters carry a valid value, so each case is refused for its own fault.
  const requiredQuery = op.params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${encodeURIComponent(String(exampleOf(p.schema, ctx.hints, p.name)))}`)
    .join('&');
  const target = (override: Record<string, string> = {}, query = true) =>
    op.path.replace(/\{([^}]+)\}/g, (_, p: string) => override[p] ?? encodeURIComponent(ctx.paramValue(op, p))) +
    (query && requiredQuery ? `?${requiredQuery}` : '');
  const headers = (extra: RawHeaders = [], apiKey: string | Buffer | null = ctx.apiKey): RawHeaders => [
    ['host', ctx.host],
    ...(apiKey === null ? [] : ([['x-api-key', apiKey]] as RawHeaders)),
    ['connection', 'close'],
    ...extra,
  ];
  const json = (body: Buffer | string, extra: RawHeaders = [], path = target()) =>
    requestBytes(
      op.method,
      path,
      headers([['content-type', 'application/json'], ...extra]),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
    );
  // A body the schema accepts (values from the fixture where the name is known), so each
  // violation is the only thing wrong with its request.
  const base = op.body ? exampleOf(op.body, ctx.hints) : undefined;
  const baseText = base === undefined ? '{}' : JSON.stringify(base);
  return {
    op,
    ctx,
    rng: ctx.rng,
    target,
    headers,
    json,
    base,
    baseText,
    add: (label, request, expect = {}) => void cases.push({ op: name, label, request, expect }),
    plain: (extra = [], path = target()) =>
      base === undefined ? requestBytes(op.method, path, headers(extra)) : json(baseText, extra, path),
  };
}

/** Every violation of the body schema, one per request, each naming its field. */
function schemaCases(b: Builder, schema: JsonSchema): void {
  for (const v of violationsOf(schema, [], b.rng, b.ctx.hints)) {
    b.add(v.label, b.json(JSON.stringify(place(b.base, schema, v.at, v.value, b.ctx.hints))), {
      status: 400,
      type: 'Bad-Request',
      field: v.field,
    });
  }
}

/**
 * Text that is not UTF-8, or not text both stores keep as sent, in the first string fields; deep nesting where the
 * schema allows any object.
 */
function textCases(b: Builder, schema: JsonSchema): void {
  const withMark = (key: string) => JSON.stringify(place(b.base, schema, [key], `ok${BAD_MARK}`, b.ctx.hints));
  const strings = Object.entries(schema.properties ?? {}).filter(
    ([, s]) => s.type === 'string' || s.anyOf?.some((x) => x.type === 'string'),
  );
  for (const [key] of strings.slice(0, 3)) {
    for (const bytes of invalidUtf8) {
      const [before, after] = withMark(key).split(BAD_MARK) as [string, string];
      b.add(
        `${key}: invalid UTF-8 ${bytes.toString('hex')}`,
        b.json(Buffer.concat([Buffer.from(before), bytes, Buffer.from(after)])),
        { status: 400, field: 'body' },
      );
    }
    for (const [label, escape] of [
      ['lone surrogate', '\\ud800'],
      ['NUL', '\\u0000'],
    ] as const) {
      b.add(`${key}: ${label} escape`, b.json(withMark(key).replace(BAD_MARK, escape)), { status: 400, field: key });
    }
  }
  for (const at of openObjectPaths(schema)) {
    const withDeep = (depth: number) =>
      JSON.stringify(place(b.base, schema, at, DEEP_MARK, b.ctx.hints)).replace(`"${DEEP_MARK}"`, deepObject(depth));
    b.add(`${at.join('.')}: object nested ${DEPTH} deep`, b.json(withDeep(DEPTH)), { status: 400, field: 'body' });
    // Each segment of the path is a container around the value: one level past the limit in all.
    const over = MAX_BODY_DEPTH + 1 - at.length;
    b.add(`${at.join('.')}: body nested ${MAX_BODY_DEPTH + 1} deep`, b.json(withDeep(over)), {
      status: 400,
      field: 'body',
    });
  }
}

/** Bodies broken as a whole: bad JSON, wrong shapes, deep nesting, too large, not JSON at all. */
function bodyShapeCases(b: Builder): void {
  const { op, rng, baseText } = b;
  const key = `zz_unknown_${rng.word(5)}`;
  if (!op.body)
    b.add('unknown field in a body the route does not take', b.json(JSON.stringify({ [key]: 1 })), {
      status: 400,
      field: key,
    });
  b.add(
    `${key}: invalid UTF-8 in a field name`,
    b.json(Buffer.concat([Buffer.from('{"'), rng.pick(invalidUtf8), Buffer.from('": 1}')])),
    { status: 400, field: 'body' },
  );
  for (const [label, text] of badJson(baseText))
    b.add(`bad JSON: ${label}`, b.json(text), { status: 400, field: 'body' });
  b.add('__proto__ key', b.json(baseText.replace(/^\{/, '{"__proto__": {"polluted": true},').replace(/,}$/, '}')), {
    status: 400,
    field: 'body',
  });
  b.add(`array nested ${DEPTH} deep`, b.json(deepArray()), { status: 400, field: 'body' });
  b.add(`object nested ${DEPTH} deep`, b.json(deepObject()), { status: 400, field: 'body' });
  // At the depth limit the body is parsed and refused for what it holds; one level past, unread.
  for (const depth of [MAX_BODY_DEPTH - 1, MAX_BODY_DEPTH]) {
    b.add(`array nested ${depth} deep`, b.json(deepArray(depth)), { status: 400, field: 'body' });
    b.add(`object nested ${depth} deep under ${key}`, b.json(`{"${key}": ${deepObject(depth - 1)}}`), {
      status: 400,
      field: key,
    });
  }
  b.add(`array nested ${MAX_BODY_DEPTH + 1} deep`, b.json(deepArray(MAX_BODY_DEPTH + 1)), {
    status: 400,
    field: 'body',
  });
  b.add(`object nested ${MAX_BODY_DEPTH + 1} deep`, b.json(deepObject(MAX_BODY_DEPTH + 1)), {
    status: 400,
    field: 'body',
  });
  // Newlines around and between the tokens, and in a string: a body of lines is one body.
  // (Formatted JSON has line breaks between tokens only: strings hold theirs escaped.)
  const unknownText = JSON.stringify({ [key]: '\n'.repeat(1024), ...(b.base as object) }, null, 1);
  const lines = '\r\n'.repeat(NEWLINES / 2);
  b.add(
    `${key}: body padded with ${NEWLINES} newlines`,
    b.json(`${lines}${unknownText.replaceAll('\n', '\n'.repeat(64))}${lines}`),
    { status: 400, field: key },
  );

  for (const [label, value] of [
    ['array', '[]'],
    ['string', '"fuzz"'],
    ['number', '42'],
    ['null', 'null'],
    ['boolean', 'true'],
  ] as const) {
    b.add(`body is a JSON ${label}`, b.json(value), { status: 400, field: 'body' });
  }
  b.add('2 MiB body', b.json(JSON.stringify({ fuzz: 'z'.repeat(2 * 1024 * 1024) })), { status: 413, field: 'body' });
  for (const type of wrongContentTypes) {
    b.add(
      `Content-Type ${type}`,
      requestBytes(op.method, b.target(), b.headers([['content-type', type]]), Buffer.from(baseText)),
      { status: 415, field: 'Content-Type' },
    );
  }
  b.add('body without Content-Type', requestBytes(op.method, b.target(), b.headers(), Buffer.from(baseText)), {
    status: 415,
    field: 'Content-Type',
  });
}

function queryCases(b: Builder): void {
  for (const q of b.op.params.filter((p) => p.in === 'query')) {
    const s = q.schema;
    const values: string[] = [];
    if (s.type === 'integer' || s.type === 'number')
      values.push('abc', '1.5e', String((s.minimum ?? 0) - 1), String((s.maximum ?? 1e9) + 1));
    if (s.type === 'integer') values.push('1.5');
    if (s.maxLength !== undefined) values.push('q'.repeat(s.maxLength + 1), '\n'.repeat(s.maxLength + 1));
    if ((s.minLength ?? 0) > 0) values.push('');
    if (s.type === 'string') values.push('a\u0000b');
    for (const v of values)
      b.add(`?${q.name}=${v.slice(0, 20)}`, b.plain([], `${b.target({}, false)}?${q.name}=${encodeURIComponent(v)}`), {
        status: 400,
        field: q.name,
      });
    b.add(`?${q.name} given twice`, b.plain([], `${b.target({}, false)}?${q.name}=1&${q.name}=2`), {
      status: 400,
      field: q.name,
    });
    // A parameter that may repeat, once more than its list may hold.
    const list = s.anyOf?.find((x) => x.type === 'array');
    if (list?.maxItems !== undefined) {
      const value = encodeURIComponent(String(exampleOf(list.items ?? {}, b.ctx.hints)));
      const repeated = Array.from({ length: list.maxItems + 1 }, () => `${q.name}=${value}`).join('&');
      b.add(`?${q.name} given ${list.maxItems + 1} times`, b.plain([], `${b.target({}, false)}?${repeated}`), {
        status: 400,
        field: q.name,
      });
    }
  }
}

function pathCases(b: Builder): void {
  for (const p of b.op.params.filter((x) => x.in === 'path')) {
    // Malformed values are refused everywhere: text the stores cannot hold or over the
    // length bound names the parameter; bytes that do not decode as UTF-8 name the path.
    const named = { status: 400, field: p.name };
    const undecodable = { status: 400, field: 'path' };
    const malformed: Array<[string, Expectation]> = [
      ['%00', named],
      ['%FF%FE', undecodable],
      ['x'.repeat(129), named],
      ['%C0%AF', undecodable],
      [`a${'%E2%82%AC'.repeat(200)}`, named],
    ];
    // Well-formed unknown values are not found only where the parameter names a resource
    // (a config name only filters a list).
    const notFound = { status: 404, type: 'Not-Found', field: p.name };
    const unknown = b.ctx.filterParams.has(p.name)
      ? []
      : ['no-such-id', b.rng.word(12), '..%2F..%2Fetc', '%E2%80%AE', "'%20OR%201=1--"].map(
          (v): [string, Expectation] => [v, notFound],
        );
    for (const [value, expect] of [...b.rng.sample(malformed, 3), ...b.rng.sample(unknown, 2)]) {
      b.add(`{${p.name}} = ${value.slice(0, 20)}`, b.plain([], b.target({ [p.name]: value })), expect);
    }
  }
}

/** A request that is otherwise fine must be refused for the header alone. */
function headerCases(b: Builder): void {
  const { op, ctx, rng } = b;
  const bad = () => rng.pick(invalidUtf8);
  const unauthorized = { status: 401, type: 'Unauthorized', field: 'x-api-key' };
  b.add('no x-api-key', requestBytes(op.method, b.target(), b.headers([], null)), unauthorized);
  b.add('unknown x-api-key', swapKey(b.plain(), ctx.apiKey, `acacia_sk_${rng.word(43)}`), unauthorized);
  b.add('8 KiB x-api-key', swapKey(b.plain(), ctx.apiKey, 'k'.repeat(8192)), unauthorized);
  b.add(
    'x-api-key with invalid UTF-8',
    swapKey(b.plain(), ctx.apiKey, Buffer.concat([Buffer.from('acacia_sk_'), bad()])),
    unauthorized,
  );
  b.add('header block over 16 KiB', b.plain([['x-fuzz-padding', 'p'.repeat(20 * 1024)]]), { status: 431 });
  const ifMatch = { status: 400, field: 'If-Match' };
  b.add('If-Match not a version', b.plain([['if-match', `"v${rng.word(6)}"`]]), ifMatch);
  b.add('If-Match with an unbalanced quote', b.plain([['if-match', `"${rng.int(1, 9)}`]]), ifMatch);
  b.add('8 KiB If-Match', b.plain([['if-match', '9'.repeat(8192)]]), ifMatch);
  b.add(
    'If-Match with invalid UTF-8',
    b.plain([['if-match', Buffer.concat([Buffer.from('"'), bad(), Buffer.from('"')])]]),
    ifMatch,
  );
  // Idempotency-Key is a feature of the API routes; the manual clock outside them ignores it.
  if (op.method === 'POST' && op.path !== '/_test/clock') {
    const idempotency = { status: 400, field: 'Idempotency-Key' };
    b.add('Idempotency-Key of 256 characters', b.plain([['idempotency-key', 'i'.repeat(256)]]), idempotency);
    b.add('Idempotency-Key with a space', b.plain([['idempotency-key', 'two words']]), idempotency);
    b.add(
      'Idempotency-Key with invalid UTF-8',
      b.plain([['idempotency-key', Buffer.concat([Buffer.from('k'), bad()])]]),
      idempotency,
    );
  }
  // An unusable X-Request-ID is replaced, never echoed; paired with a garbage path so the request is refused.
  const first = op.params.find((p) => p.in === 'path');
  const refusedPath = first ? b.target({ [first.name]: 'no-such-id' }) : `${b.target({}, false)}/no-such-route`;
  for (const [label, value] of [
    ['10 KiB', 'r'.repeat(10 * 1024)],
    ['with spaces', 'not a safe id'],
    ['invalid UTF-8', Buffer.concat([Buffer.from('req-'), bad()])],
  ] as const) {
    b.add(`X-Request-ID ${label}`, b.plain([['x-request-id', value]], refusedPath), { freshRequestId: true });
  }
}

/** Framing the HTTP parser refuses before any route runs. */
function framingCases(b: Builder): void {
  const { op, ctx } = b;
  const line = `${op.method} ${b.target()} HTTP/1.1\r\n`;
  const frame = (text: string) => Buffer.from(text, 'latin1');
  const common = `host: ${ctx.host}\r\nx-api-key: ${ctx.apiKey}\r\nconnection: close\r\n`;
  const json = 'content-type: application/json\r\n';
  b.add('Content-Length not a number', frame(`${line}${common}${json}content-length: abc\r\n\r\n{}`), {
    status: 400,
    field: 'Content-Length',
  });
  // The parser blames whichever of the two headers comes second: here Transfer-Encoding.
  b.add(
    'Content-Length and Transfer-Encoding',
    frame(`${line}${common}${json}content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`),
    { status: 400, field: 'Transfer-Encoding' },
  );
  b.add('bad chunk size', frame(`${line}${common}${json}transfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`), {
    status: 400,
    field: 'body',
  });
  b.add('header name with a space', frame(`${line}${common}bad header: x\r\n\r\n`), { status: 400, field: 'headers' });
  b.add('NUL in a header value', frame(`${line}${common}x-fuzz: a\u0000b\r\n\r\n`), { status: 400, field: 'headers' });
  b.add('unknown method', frame(`FUZZ ${b.target()} HTTP/1.1\r\n${common}\r\n`), { status: 400, field: 'method' });
  b.add('folded header line', frame(`${line}${common}x-fuzz: a\r\n b\r\n\r\n`), { status: 400, field: 'headers' });
  b.add(
    'TLS handshake bytes',
    Buffer.concat([
      Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]),
      Buffer.from('\r\n\r\n'),
    ]),
    { status: 400, field: 'method' },
  );
  b.add(
    'raw bytes in the path',
    Buffer.concat([
      frame(`${op.method} ${b.target({}, false)}/`),
      b.rng.pick(invalidUtf8),
      frame(` HTTP/1.1\r\n${common}\r\n`),
    ]),
    { status: 400, field: 'path' },
  );
  b.add('no Host header', frame(`${line}x-api-key: ${ctx.apiKey}\r\nconnection: close\r\n\r\n`), {
    status: 400,
    field: 'Host',
  });
}

/**
 * Generates every case for one operation: schema violations, broken bodies, bad parameters and headers, broken
 * framing.
 */
export function casesFor(op: Operation, ctx: FuzzContext): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const b = builderFor(op, ctx, cases);
  if (op.body) {
    schemaCases(b, op.body);
    textCases(b, op.body);
  }
  if (op.method !== 'GET' && op.method !== 'HEAD') bodyShapeCases(b);
  queryCases(b);
  pathCases(b);
  headerCases(b);
  framingCases(b);
  return cases;
}

/** The same request with another x-api-key value (the key is the first x-api-key header). */
function swapKey(request: Buffer, key: string, replacement: string | Buffer): Buffer {
  const marker = Buffer.from(`x-api-key: ${key}`);
  const at = request.indexOf(marker);
  return Buffer.concat([
    request.subarray(0, at),
    Buffer.from('x-api-key: '),
    Buffer.isBuffer(replacement) ? replacement : Buffer.from(replacement, 'latin1'),
    request.subarray(at + marker.length),
  ]);
}

/**
 * Past these a refusal is too large or too slow: one is a few hundred bytes (20 details at
 * most), answered at once, however large the request.
 */
const MAX_ANSWER_BYTES = 32 * 1024;
const MAX_ANSWER_MS = 5_000;

/** What is wrong with the response to a case, or undefined when it is a proper refusal. */
export function judge(c: FuzzCase, outcome: RawOutcome): string | undefined {
  const res = outcome.response;
  if (!res)
    return outcome.timedOut
      ? 'no response before the deadline'
      : `connection closed without a response after ${outcome.elapsedMs} ms`;
  const text = res.body.toString('utf8');
  // A seam to an outside service that is not configured (payments) refuses every well-formed
  // request with 501 API-Disabled, whatever ids it names.
  const disabled = res.status === 501 && text.includes('"Type":"API-Disabled"');
  if (!disabled && (res.status < 400 || res.status > 499)) return `HTTP ${res.status}: ${text.slice(0, 300)}`;
  if (res.body.length > MAX_ANSWER_BYTES) return `a ${res.body.length}-byte answer: ${text.slice(0, 200)}`;
  if (outcome.elapsedMs > MAX_ANSWER_MS) return `answered after ${outcome.elapsedMs} ms`;
  if (!disabled && c.expect.status !== undefined && res.status !== c.expect.status)
    return `expected HTTP ${c.expect.status}, got ${res.status}: ${text.slice(0, 300)}`;
  if (!/^application\/json/.test(res.headers['content-type'] ?? ''))
    return `Content-Type ${res.headers['content-type']}: ${text.slice(0, 200)}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `body is not JSON: ${text.slice(0, 200)}`;
  }
  const details = body.ErrorDetails as Array<Record<string, unknown>> | undefined;
  if (
    body.Error !== true ||
    typeof body.Message !== 'string' ||
    typeof body.RequestID !== 'string' ||
    !body.RequestID ||
    'Result' in body ||
    !Array.isArray(details) ||
    details.length === 0
  ) {
    return `not an error envelope: ${text.slice(0, 300)}`;
  }
  for (const d of details) {
    if (
      typeof d.FieldName !== 'string' ||
      !d.FieldName ||
      typeof d.Reason !== 'string' ||
      !d.Reason ||
      !ERROR_TYPES.has(String(d.Type))
    ) {
      return `malformed ErrorDetails entry ${JSON.stringify(d)}`;
    }
  }
  if (res.headers['x-request-id'] !== undefined && res.headers['x-request-id'] !== body.RequestID)
    return `X-Request-ID ${res.headers['x-request-id']} differs from RequestID ${String(body.RequestID)}`;
  if (c.expect.freshRequestId && !UUID.test(body.RequestID as string))
    return `an unusable X-Request-ID was echoed: ${String(body.RequestID).slice(0, 40)}`;
  if (c.expect.field !== undefined && !disabled) {
    const type = c.expect.type ?? 'Bad-Request';
    if (!details.some((d) => d.FieldName === c.expect.field && d.Type === type))
      return `expected a ${type} detail for "${c.expect.field}", got ${JSON.stringify(details).slice(0, 300)}`;
  }
  return undefined;
}
