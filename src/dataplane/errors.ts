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
