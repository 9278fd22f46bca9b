import type { ApiResponse } from './surface.js';

/** An error envelope (or an answer that is none), as an exception. */
export class AcaciaApiError extends Error {
  constructor(readonly response: ApiResponse<unknown>) {
    const details = response.body && 'ErrorDetails' in response.body ? response.body.ErrorDetails : [];
    super(`HTTP ${response.status}: ${details.map((d) => `${d.FieldName}: ${d.Reason}`).join('; ')}`);
    this.name = 'AcaciaApiError';
  }
}
