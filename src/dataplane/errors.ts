/**
 * A refusal in TigerGraph's terms: its error code (`REST-30000`, …) and message, and the HTTP
 * status the data plane answers with. One table keeps codes and statuses together.
 */
export const errorKinds = {
  /** Bad payload or parameter: unknown attribute, wrong value type, bad filter. */
  invalidPayload: { code: 'REST-30000', status: 400 },
  invalidParameter: { code: 'REST-30001', status: 400 },
  invalidJson: { code: 'REST-2001', status: 400 },
  invalidVertexType: { code: 'REST-2004', status: 400 },
  invalidEdgeType: { code: 'REST-2005', status: 400 },
  /** An upsert payload REST++ refuses: unknown type or attribute, a value that does not fit (TigerGraph 4.x). */
  upsertRejected: { code: 'REST-30200', status: 400 },
  /** A statistics builtin naming a vertex type the graph does not have (TigerGraph 4.x's GSQL-backed builtins). */
  unknownStatType: { code: 'GSQL-7004', status: 400 },
  /** A vertex id that names no vertex. */
  vertexNotFound: { code: '601', status: 404 },
  graphNotFound: { code: 'REST-1004', status: 404 },
  endpointNotFound: { code: 'REST-1000', status: 404 },
  /** The shared secret header is missing or wrong. */
  unauthorized: { code: 'REST-10016', status: 401 },
  /** Writes on a process that serves a snapshot. */
  readOnly: { code: 'READ-ONLY', status: 403 },
  bodyTooLarge: { code: 'REST-30000', status: 413 },
  /** Installed and interpreted queries and the like. */
  notSupported: { code: 'GSQL-7001', status: 501 },
  internal: { code: 'REST-10005', status: 500 },
  /** A query that ran past its timeout (GSQL-TIMEOUT) and was stopped. */
  queryTimeout: { code: 'REST-3003', status: 408 },
  /** A query that failed while it ran: RAISE, a bad value, too much output. */
  queryRuntime: { code: 'REST-3004', status: 400 },
  /** A query stopped by `/abortquery`, or by a schema change or restore made while it let other requests in. */
  queryAborted: { code: 'REST-3005', status: 409 },
  /** Too many requests already wait for the running query to finish. */
  queriesBusy: { code: 'REST-3006', status: 429 },
  /** A query text that does not parse or does not fit the schema. */
  querySyntax: { code: 'GSQL-1001', status: 400 },
} as const;

export type ErrorKind = keyof typeof errorKinds;

export class DataPlaneError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }

  get code(): string {
    return errorKinds[this.kind].code;
  }

  get status(): number {
    return errorKinds[this.kind].status;
  }
}

export const fail = (kind: ErrorKind, message: string): never => {
  throw new DataPlaneError(kind, message);
};
