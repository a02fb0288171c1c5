import { wrongValue } from '../internal/wrong-value.js';

/** Where the SDK logs: any object with console's four methods. */
export type Logger = Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;

/** How much the SDK logs: `debug` (every request and response) down to `off`. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** The environment variable read when `logLevel` is not given. */
export const LOG_LEVEL_ENV = 'PARLEY_LOG';

/** A logger is anything (an object, a function) that has console's four methods: else a TypeError. */
export function checkLogger(logger: unknown): void {
  if (logger === undefined) return;
  const methods = ['debug', 'info', 'warn', 'error'] as const;
  if (methods.every((name) => typeof (logger as Record<string, unknown> | null)?.[name] === 'function'))
    return;
  throw wrongValue(
    'new Parley()',
    'logger',
    'an object with the methods debug, info, warn and error',
    logger,
  );
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

type Line = (line: string) => void;

/** The logger's methods at or above `level`; a level below it is `undefined`, so no line is built. */
export interface LevelLogger {
  debug: Line | undefined;
  info: Line | undefined;
  warn: Line | undefined;
  error: Line | undefined;
}

/**
 * The logger's methods at or above `level`. A method that throws loses its line and nothing else:
 * logging never fails the request it describes (a heartbeat, a tool call's report).
 */
export function levelLogger(logger: Logger, level: LogLevel): LevelLogger {
  const at = (name: Exclude<LogLevel, 'off'>): Line | undefined =>
    RANK[name] >= RANK[level]
      ? (line) => {
          try {
            const returned: unknown = logger[name](line);
            // A logger that writes asynchronously and fails: dropped too, never left unhandled.
            if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') {
              Promise.resolve(returned).catch(() => {});
            }
          } catch {
            // Dropped: see above.
          }
        }
      : undefined;
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'x-parley-control-token',
]);

/** Headers as one log line's text, credentials hidden: `authorization: Bearer ***`. */
export function redactedHeaders(headers: Headers): string {
  const parts: string[] = [];
  headers.forEach((value, name) => {
    if (!SECRET_HEADERS.has(name)) parts.push(`${name}: ${value}`);
    else parts.push(`${name}: ${name === 'authorization' ? `${value.split(' ')[0]} ***` : '***'}`);
  });
  return parts.join(', ');
}
