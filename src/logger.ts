import type { FastifyBaseLogger } from 'fastify';
import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';

/** pino's levels, from the most to the least severe; `silent` writes nothing. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

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
  // An invitation's token admits whoever holds it until it is spent.
  '*.invite_token',
  '*.invite_hash',
  'invite_token',
];

export type LogFormat = 'auto' | 'json' | 'text';

/** Fields every line has, which the text format shows in its own way or leaves out. */
const TEXT_OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname']);
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** One pino JSON line as a readable one: `12:00:01.234 INFO  message key=value …`. */
export function textLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const level = (LEVEL_NAMES[record.level as number] ?? String(record.level)).padEnd(5);
  const fields = Object.entries(record)
    .filter(([k]) => !TEXT_OMITTED.has(k))
    .map(([k, v]) => {
      // An error keeps its stack on lines of its own, where it can be read.
      if (v && typeof v === 'object' && typeof (v as { stack?: unknown }).stack === 'string')
        return `${k}=${JSON.stringify((v as { message?: unknown }).message ?? '')}\n${(v as { stack: string }).stack}`;
      return `${k}=${typeof v === 'string' && !/\s|"/.test(v) ? v : JSON.stringify(v)}`;
    });
  return [time, level, String(record.msg ?? ''), ...fields].filter(Boolean).join(' ');
}

/** A destination that writes each line pino makes as text (synchronously: a terminal is a person reading). */
function textDestination(out: { write(text: string): unknown }): DestinationStream {
  return { write: (line: string) => void out.write(`${textLine(line.trimEnd())}\n`) };
}

/**
 * Lines to stdout (or the given stream), secrets redacted: pino's JSON, or readable text
 * (`auto`: text when stdout is a terminal). Redaction happens before either is written.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const text = format === 'text' || (format === 'auto' && destination === undefined && process.stdout.isTTY === true);
  return pino(
    {
      level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    text ? textDestination(destination ?? process.stdout) : (destination ?? pino.destination({ dest: 1, sync: false })),
  );
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made into a pino child only when a line is written at an enabled
 * level: most requests write nothing at the configured level, and making a child (its
 * bindings serialised and redacted) costs a few microseconds on every request.
 */
class LazyChild implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(level: Level, args: unknown[]): void {
    if (this.made === undefined && !this.parent.isLevelEnabled(level)) return;
    const real = this.real();
    (real[level] as (...a: unknown[]) => void).apply(real, args);
  }

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }
}

/** Fastify's childLoggerFactory for the API and the gateway. */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChild(parent as Logger, bindings, options);
}
