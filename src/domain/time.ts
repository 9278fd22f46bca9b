/** RFC 3339 in UTC with a Z and whole seconds, as every record of the API writes time. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const isoOrUndefined = (ms: number | null | undefined) => (ms == null ? undefined : iso(ms));
