/** Whether a parsed JSON value is an object (not null, not a list): the shape payloads are made of. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
