import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** Paths whose values are secrets wherever they appear in a log line. */
export const redactedPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.password',
  '*.plaintext_key',
  '*.key_hash',
  'password',
  'plaintext_key',
];

/** JSON lines to stdout (or the given stream), secrets redacted. */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
