import { buildResultSurface } from '../../../src/client/surface.js';
import { send } from './http.js';

/**
 * The API as the console calls it: the typed client's methods, generated from the server's
 * endpoint table (paths, bodies and records declared once), each answering the Result.
 */
export const api = buildResultSurface(send);
