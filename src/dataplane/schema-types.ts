/** The graph schema a store holds: global vertex and edge types, and graphs that group them. */

/** Types of single values: attributes, tuple fields and the elements of collections. */
export const scalarTypeNames = ['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME'] as const;
export type ScalarTypeName = (typeof scalarTypeNames)[number];

const numericTypeNames = new Set<string>(['INT', 'UINT', 'FLOAT', 'DOUBLE']);

/** INT, UINT, FLOAT and DOUBLE: the types that add, compare and sum as numbers. */
export const isNumericType = (type: string | undefined): boolean => type !== undefined && numericTypeNames.has(type);

/** Attribute types the data plane stores: scalars, FIXED_BINARY, a user-defined tuple (UDT) and collections. */
export const attributeTypeNames = [...scalarTypeNames, 'FIXED_BINARY', 'UDT', 'LIST', 'SET', 'MAP'] as const;
export type AttributeTypeName = (typeof attributeTypeNames)[number];

/** A field of a user-defined tuple (`TYPEDEF TUPLE <f INT, g STRING(10)> name`). */
export interface TupleField {
  name: string;
  type: ScalarTypeName;
  /** The size written in brackets: bytes of an INT/UINT, characters of a STRING. */
  size?: number;
}

export interface TupleDef {
  name: string;
  fields: TupleField[];
  /** The graph a local tuple belongs to; global tuples have none. */
  graph?: string;
}

/** Types a primary id may have. */
export const primaryIdTypeNames = ['STRING', 'INT', 'UINT'] as const;
export type PrimaryIdTypeName = (typeof primaryIdTypeNames)[number];

/**
 * A stored attribute value: numbers, strings (DATETIME as "YYYY-MM-DD hh:mm:ss", FIXED_BINARY as
 * given) and booleans; LIST and SET as arrays, MAP and tuples as objects.
 */
export type AttributeValue = number | string | boolean | AttributeValue[] | { [key: string]: AttributeValue };

/** What a value of an attribute must be: its type and, for collections and tuples, their parts. */
export interface ValueShape {
  type: AttributeTypeName;
  /** The element type of a LIST or SET, the value type of a MAP. */
  valueType?: ScalarTypeName | 'UDT';
  keyType?: ScalarTypeName;
  /** The tuple of a UDT attribute or of UDT elements, copied in: a tuple in use cannot change. */
  tuple?: TupleDef;
  /** FIXED_BINARY(n): bytes. */
  fixedSize?: number;
}

export interface AttributeDef extends ValueShape {
  name: string;
  /** The `DEFAULT` clause, already checked against the type. */
  default?: AttributeValue;
  /** True for the attribute that also holds the primary id (PRIMARY KEY form or primary_id_as_attribute). */
  isPrimaryKey?: boolean;
}

export interface VertexTypeDef {
  name: string;
  /** The graph a local type belongs to (made by a graph's schema change job); global types have none. */
  graph?: string;
  /** The attributes of a composite `PRIMARY KEY (a, b, …)`, whose id is their values joined. */
  compositeKey?: string[];
  primaryId: { name: string; type: PrimaryIdTypeName };
  /** `PRIMARY KEY` form (the key is an attribute) rather than `PRIMARY_ID`. */
  primaryKeyForm: boolean;
  /** Every attribute in declared order; the primary id is one of them when it is an attribute. */
  attributes: AttributeDef[];
  /** The `WITH` options, keys upper-cased (STATS, PRIMARY_ID_AS_ATTRIBUTE). */
  config: Record<string, string>;
}

export interface EdgePair {
  from: string;
  to: string;
}

export interface EdgeTypeDef {
  name: string;
  graph?: string;
  directed: boolean;
  /** FROM/TO vertex type pairs (`FROM a, TO b | FROM c, TO d`). */
  pairs: EdgePair[];
  attributes: AttributeDef[];
  /** Name of the reverse edge type of a directed edge (`WITH REVERSE_EDGE="…"`). */
  reverse?: string;
}

export interface GraphDef {
  name: string;
  vertexTypes: string[];
  /** Forward edge types; their reverse edge types belong to the graph with them. */
  edgeTypes: string[];
}

/** A schema change job as stored: its parsed steps, and its text for `SHOW JOB`. */
export interface SchemaJobDef {
  name: string;
  global: boolean;
  /** The graph of a local job. */
  graph?: string;
  actions: unknown[];
  text: string;
}
