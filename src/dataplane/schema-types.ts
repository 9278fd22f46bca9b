/** The graph schema a store holds: global vertex and edge types, and graphs that group them. */

/** Attribute types the data plane stores; collections, tuples and FIXED_BINARY are out of scope. */
export const attributeTypeNames = ['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME'] as const;
export type AttributeTypeName = (typeof attributeTypeNames)[number];

/** Types a primary id may have. */
export const primaryIdTypeNames = ['STRING', 'INT', 'UINT'] as const;
export type PrimaryIdTypeName = (typeof primaryIdTypeNames)[number];

/** A stored attribute value: numbers, strings (DATETIME as "YYYY-MM-DD hh:mm:ss") and booleans. */
export type AttributeValue = number | string | boolean;

export interface AttributeDef {
  name: string;
  type: AttributeTypeName;
  /** The `DEFAULT` clause, already checked against the type. */
  default?: AttributeValue;
  /** True for the attribute that also holds the primary id (PRIMARY KEY form or primary_id_as_attribute). */
  isPrimaryKey?: boolean;
}

export interface VertexTypeDef {
  name: string;
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
