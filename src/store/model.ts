/**
 * A table's row declared once (src/store/models/): for each field its column, how its value
 * is kept there (its codec), its default in a new row, whether it is spec (what the owner
 * asks for), status (what the engine and the drivers observed) or metadata, and the API
 * field a record shows it as. The domain's property of a field is its column's name. From the
 * declaration come the Kysely table type, the domain's row type, the row codec both ways,
 * new rows with their defaults, and the fields a record shows as they are. A field is added
 * by declaring it and adding its column in a migration (docs/architecture.md);
 * test/workspace-model.test.ts checks that the two agree, on both stores.
 */

/** Column types as the migrations write them; SQLite keeps them only as text and enforces no length. */
export type SqlType = `varchar(${number})` | 'text' | 'integer' | 'bigint';

/**
 * How a domain value is kept in its column, identically on SQLite and PostgreSQL: booleans
 * as 0/1 integers, structures as JSON text, times as epoch milliseconds in a bigint (pg
 * reads int8 as a Number, see store.ts). Without decode and encode the column holds the
 * value as it is.
 */
export interface Codec<D, C> {
  readonly sql: SqlType;
  readonly nullable: boolean;
  readonly decode: ((column: C) => D) | undefined;
  readonly encode: ((value: D) => C) | undefined;
}

const plain = <D, C>(sql: SqlType): Codec<D, C> => ({ sql, nullable: false, decode: undefined, encode: undefined });

/** Text, of at most `length` characters (PostgreSQL enforces it); `T` narrows what the domain holds. */
export const text = <T extends string = string>(length?: number): Codec<T, string> =>
  plain(length === undefined ? 'text' : `varchar(${length})`);
export const integer = (): Codec<number, number> => plain('integer');
/** Epoch milliseconds, byte counts: past 2^31, well inside a Number's exact range. */
export const bigint = (): Codec<number, number> => plain('bigint');
export const flag = (): Codec<boolean, number> => ({
  sql: 'integer',
  nullable: false,
  decode: (column) => column === 1,
  encode: (value) => (value ? 1 : 0),
});
export const json = <T>(): Codec<T, string> => ({
  sql: 'text',
  nullable: false,
  decode: (column) => JSON.parse(column) as T,
  encode: (value) => JSON.stringify(value),
});
export function nullable<D, C>(codec: Codec<D, C>): Codec<D | null, C | null> {
  const { decode, encode } = codec;
  return {
    sql: codec.sql,
    nullable: true,
    decode: decode && ((column) => (column === null ? null : decode(column))),
    encode: encode && ((value) => (value === null ? null : encode(value))),
  };
}

/** Spec: what the owner asks for. Status: what the engine and the drivers observed. Metadata: the rest. */
export type Role = 'spec' | 'status' | 'metadata';

/** A default that is the time the row is made. */
export const NOW = Symbol('now');

/**
 * How a record shows a field under the API's name: as it is, or only when it holds something
 * (`whenSet`: not null, 0, false or empty); epoch milliseconds as an ISO time (`time`).
 */
export interface Shown<N extends string = string, Time extends boolean = boolean> {
  name: N;
  whenSet: boolean;
  time: Time;
}

export interface ShownHow {
  whenSet?: true;
  time?: true;
}

export interface FieldOptions<D> {
  default?: D | typeof NOW;
  shown?: Shown;
  /**
   * On a spec field, the status field it asks to change (while an operation changes it): the
   * workspace asks for this field's value, or, while it is null, for what runs.
   */
  target?: string;
  /**
   * On a spec field that asks for something no status field shows (a restore's backup): what
   * an operation asks while it runs, null once none does, as a target is.
   */
  asked?: true;
}

export interface Field<D, C, O extends FieldOptions<D> = FieldOptions<D>> {
  readonly codec: Codec<D, C>;
  readonly role: Role;
  readonly options: O;
}

/**
 * A column the store keeps from another field on every write (a name's case-insensitive key):
 * it is in the table, not in the domain's row.
 */
export interface Derived<C> {
  readonly codec: Codec<C, C>;
  readonly from: string;
  readonly value: (source: never) => C;
}

const field =
  (role: Role) =>
  <D, C, const O extends FieldOptions<D> = object>(codec: Codec<D, C>, options: O = {} as O): Field<D, C, O> => ({
    codec,
    role,
    options,
  });
export const spec = field('spec');
export const status = field('status');
export const metadata = field('metadata');

export function derived<S, C>(codec: Codec<C, C>, from: string, value: (source: S) => C): Derived<C> {
  return { codec, from, value: value as (source: never) => C };
}

/** How a record shows a field; `name` is the API's. */
export const shown = <N extends string, const H extends ShownHow = object>(
  name: N,
  how: H = {} as H,
): Shown<N, H extends { time: true } ? true : false> => ({
  name,
  whenSet: how.whenSet ?? false,
  time: (how.time ?? false) as H extends { time: true } ? true : false,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = Field<any, any, FieldOptions<any>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Fields = Record<string, AnyField | Derived<any>>;

/** The table as Kysely sees it: every column, derived ones included. */
export type ColumnsOf<F extends Fields> = {
  -readonly [K in keyof F]: F[K] extends Field<infer _D, infer C> ? C : F[K] extends Derived<infer C> ? C : never;
};

type DomainKeys<F extends Fields> = { [K in keyof F]: F[K] extends AnyField ? K : never }[keyof F];

/** The row as the domain sees it: decoded values, no derived columns. */
export type RowOf<F extends Fields> = {
  -readonly [K in DomainKeys<F>]: F[K] extends Field<infer D, infer _C> ? D : never;
};

/** Fields a new row must be given: those with no default that cannot be null. */
type RequiredKeys<F extends Fields> = {
  [K in DomainKeys<F>]: F[K] extends Field<infer D, infer _C, infer O>
    ? null extends D
      ? never
      : O extends { default: unknown }
        ? never
        : K
    : never;
}[DomainKeys<F>];

/** What a new row is made of: the required fields, and any other not to be left at its default. */
export type GivenOf<F extends Fields> = Pick<RowOf<F>, RequiredKeys<F>> & Partial<Omit<RowOf<F>, RequiredKeys<F>>>;

/**
 * The API fields the row's record shows as they are, with the record's types (`Record`): a
 * field whose value does not fit its API field's type (strings of a closed set aside, which
 * the store holds as text) is a `Misfit`, so the record cannot be built from it.
 */
export type ShownOf<F extends Fields, Record> = {
  [K in DomainKeys<F> as ShownName<F[K]>]: ShownName<F[K]> extends keyof Record
    ? Fits<F[K], Record[ShownName<F[K]>]>
    : never;
};
type ShownName<T> =
  T extends Field<infer _D, infer _C, infer O> ? (O extends { shown: Shown<infer N> } ? N : never) : never;
type Fits<T, R> =
  T extends Field<infer D, infer _C, infer O>
    ? O extends { shown: { time: true } }
      ? NonNullable<D> extends number
        ? R
        : Misfit
      : NonNullable<D> extends Widened<NonNullable<R>>
        ? R
        : Misfit
    : Misfit;
/** What a record gets of a field declared to show a value its API field cannot hold: fits no API type. */
interface Misfit {
  readonly misfit: 'the value does not fit its API field';
}
type Widened<T> = T extends string ? string : T;

/** Each status field a spec field targets, and that spec field. */
export type TargetsOf<F extends Fields> = {
  [K in DomainKeys<F> as TargetOf<F[K]>]: K;
};
type TargetOf<T> =
  T extends Field<infer _D, infer _C, infer O> ? (O extends { target: infer S extends string } ? S : never) : never;

/** The spec fields an operation asks for while it runs: those with a target and those `asked`. */
export type AskedOf<F extends Fields> = {
  [K in DomainKeys<F>]: F[K] extends Field<infer _D, infer _C, infer O>
    ? O extends { target: string } | { asked: true }
      ? K
      : never
    : never;
}[DomainKeys<F>];

const isField = (f: AnyField | Derived<unknown>): f is AnyField => 'role' in f;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** Everything derived from a table's declaration. */
export interface Model<F extends Fields, T extends string = string> {
  readonly table: T;
  readonly fields: F;
  /** Every column, in declaration order. */
  readonly columns: readonly string[];
  /** Each spec field that names a target, and the status field it asks to change. */
  readonly targets: ReadonlyArray<{ spec: string; status: string }>;
  /** Every spec field an operation asks for while it runs: the targets and the fields `asked`. */
  readonly asked: readonly string[];
  /** A row read from the store (a driver's row, or the JSON the record views build). */
  fromRow(row: ColumnsOf<F>): RowOf<F>;
  /** One column's value as the domain holds it (a read of some columns only). */
  fromColumn<K extends DomainKeys<F>>(name: K, value: ColumnsOf<F>[K]): RowOf<F>[K];
  /** The columns of (part of) a row, derived ones included when their source is given. */
  toColumns(values: RowOf<F>): ColumnsOf<F>;
  toColumns(values: Partial<RowOf<F>>): Partial<ColumnsOf<F>>;
  /** A new row: what is given, the declared defaults for the rest (`NOW` is `now`). */
  newRow(given: GivenOf<F>, now: number): RowOf<F>;
  /**
   * What completes a record (`Record`) with the fields it shows of the row as they are, given
   * the rest of it; `time` renders epoch milliseconds.
   */
  showInto<Record>(
    time: (ms: number) => string,
  ): (row: RowOf<F>, rest: Omit<Record, keyof ShownOf<F, Record>>) => ShownOf<F, Record> & typeof rest;
}

export function model<T extends string, F extends Fields>(table: T, fields: F): Model<F, T> {
  const entries = Object.entries(fields);
  for (const [name] of entries)
    if (!IDENTIFIER.test(name)) throw new Error(`${table}.${name}: not a plain column name`);
  const own = entries.filter((e): e is [string, AnyField] => isField(e[1]));
  const derivedColumns = entries.filter((e): e is [string, Derived<unknown>] => !isField(e[1]));
  return {
    table,
    fields,
    columns: entries.map(([name]) => name),
    targets: own.flatMap(([name, f]) => {
      const target = f.options.target;
      if (target === undefined) return [];
      const of = fields[target];
      if (f.role !== 'spec' || !f.codec.nullable || !of || !isField(of) || of.role !== 'status')
        throw new Error(`${table}.${name}: a target is a nullable spec field naming a status field`);
      return [{ spec: name, status: target }];
    }),
    asked: own.flatMap(([name, f]) => {
      if (f.options.target === undefined && !f.options.asked) return [];
      if (f.role !== 'spec' || !f.codec.nullable)
        throw new Error(`${table}.${name}: what an operation asks is a nullable spec field`);
      return [name];
    }),
    fromRow: compileFromRow(own) as Model<F, T>['fromRow'],
    fromColumn(name, value) {
      const decode = (fields[name] as AnyField).codec.decode;
      return decode ? decode(value) : value;
    },
    toColumns(values: Partial<RowOf<F>>) {
      const out: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) continue;
        const f = fields[name];
        if (!f || !isField(f)) throw new Error(`${table} has no field ${name}`);
        out[name] = f.codec.encode ? f.codec.encode(value) : value;
      }
      for (const [name, d] of derivedColumns) {
        const source = (values as Record<string, unknown>)[d.from];
        if (source !== undefined) out[name] = d.value(source as never);
      }
      return out as ColumnsOf<F>;
    },
    newRow(given, now) {
      const out: Record<string, unknown> = {};
      for (const [name, f] of own) {
        const value = (given as Record<string, unknown>)[name];
        const fallback = 'default' in f.options ? f.options.default : f.codec.nullable ? null : undefined;
        if (value !== undefined) out[name] = value;
        else if (fallback === NOW) out[name] = now;
        // A fresh copy of a list or object, so no two rows share one.
        else if (typeof fallback === 'object' && fallback !== null) out[name] = structuredClone(fallback);
        else if (fallback !== undefined) out[name] = fallback;
        else throw new Error(`a new ${table} row needs ${name}`);
      }
      return out as RowOf<F>;
    },
    showInto: (time) => compileShowInto(own, time),
  };
}

/**
 * The row mapper as one object literal, generated once from the declaration: a driver's row
 * this wide is a dictionary-mode object, and copying it field by field in a loop (or with rest
 * and spread) costs about three times what the literal does, more than reading the row from
 * SQLite (measured with bench/). The literal also gives every row one hidden class for the
 * code that renders records.
 */
function compileFromRow(own: ReadonlyArray<[string, AnyField]>): (row: unknown) => unknown {
  const decoders = own.map(([, f]) => f.codec.decode);
  for (const [name] of own) if (!IDENTIFIER.test(name)) throw new Error(`not a plain column name: ${name}`);
  const body = own.map(([name], i) => (decoders[i] ? `${name}: d${i}(r.${name})` : `${name}: r.${name}`));
  // The text is made of the declaration's own identifiers, checked above, never of input.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const make = new Function(...decoders.map((_, i) => `d${i}`), `return (r) => ({ ${body.join(', ')} });`);
  return make(...decoders) as (row: unknown) => unknown;
}

/**
 * Writes what a record shows of a row into the rest of the record, generated once from the
 * declaration: the same writes in the same order give every record one hidden class. A
 * literal that spreads an object of these fields first and adds the rest made a hidden class
 * per record, thirty times slower; spread last, it cost half as much again.
 */
function compileShowInto(own: ReadonlyArray<[string, AnyField]>, time: (ms: number) => string) {
  const writes = own.flatMap(([name, f]) => {
    const how = f.options.shown;
    if (!how) return [];
    if (!IDENTIFIER.test(how.name)) throw new Error(`${name}: not a plain API name: ${how.name}`);
    const write = `o.${how.name} = ${how.time ? `time(w.${name})` : `w.${name}`};`;
    return [how.whenSet ? `if (w.${name}) ${write}` : write];
  });
  // As above: the declaration's identifiers, checked, never input.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const make = new Function('time', `return (w, o) => { ${writes.join(' ')} return o; };`);
  return make(time) as (row: unknown, record: object) => never;
}
