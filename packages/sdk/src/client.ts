import { type FetchLike, HttpClient, type Logger } from './core/http-client.js';
import { isLogLevel, LOG_LEVEL_ENV, type LogLevel, levelLogger } from './core/log-level.js';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
} from './defaults.js';
import { readEnv } from './internal/read-env.js';
import { warnUnknownOptions } from './internal/unknown-options.js';
import { wrongValue } from './internal/wrong-value.js';
import { Messages } from './resources/messages.js';
import { Sessions } from './resources/sessions.js';
import { Tools } from './resources/tools.js';
import { type RunToolLoopOptions, runToolLoop } from './tools/loop/run-tool-loop.js';
import type { ToolLoopRun } from './tools/loop/tool-loop-run.js';
import type { TracerOption } from './tracing/tracer-like.js';

/** The environment variable read when `baseUrl` is not given. */
export const BASE_URL_ENV = 'PARLEY_BASE_URL';
/** The environment variable read when neither `token` nor `getToken` is given. */
export const TOKEN_ENV = 'PARLEY_TOKEN';

/** Options of `new Parley(...)`. */
export interface ParleyOptions {
  /**
   * Where the service runs, e.g. `http://localhost:4010` (paths start with `/v1`). Default: the
   * `PARLEY_BASE_URL` environment variable (Node, Deno, Bun).
   */
  baseUrl?: string;
  /** A fixed bearer token. Default: the `PARLEY_TOKEN` environment variable, unless `getToken` is given. */
  token?: string;
  /** Returns the bearer token before each attempt (refreshable credentials); wins over `token`. */
  getToken?: () => string | Promise<string>;
  /** A standard `fetch` to use instead of the global one (msw, a server's in-process `fetch`, ...). */
  fetch?: FetchLike;
  /** Time limit of each attempt in ms. Default 60 000. */
  timeoutMs?: number;
  /** Retries of requests that are safe to repeat. Default 2. */
  maxRetries?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Where the SDK logs: any object with console's four methods. Default: `console`. A method that
   * throws loses its line and changes nothing else.
   */
  logger?: Logger;
  /**
   * How much the SDK logs: `'debug'` (each request with its headers, the bearer token hidden, each
   * response and retry), `'info'`, `'warn'` (a base URL that looks wrong), `'error'` or `'off'`.
   * Default: the `PARLEY_LOG` environment variable, else `'warn'`. Giving a `logger` does not change
   * the level: pass `logLevel: 'debug'` too to see each request.
   */
  logLevel?: LogLevel;
  /** Longest gap between two chunks of a streamed reply in ms. Default 60 000. */
  streamIdleTimeoutMs?: number;
  /** Longest wait for the first event of a streamed reply in ms. Default 60 000. */
  streamFirstEventTimeoutMs?: number;
  /**
   * Records OpenTelemetry spans: of each request, stream, tool loop, step and tool run. Pass a
   * tracer (`trace.getTracer('my-app')` from `@opentelemetry/api`), or `'global'` for the tracer of
   * the globally registered provider. Default: none, and no tracing code loads.
   */
  tracer?: TracerOption;
}

/**
 * The Conversation Session Service client. Without options it reads `PARLEY_BASE_URL` and
 * `PARLEY_TOKEN` from the environment.
 *
 * @example
 * ```ts
 * const client = new Parley({ baseUrl: 'http://localhost:4010', token: 'parley-demo-token' });
 * const { sessionId } = await client.sessions.create();
 * const reply = await client.messages.send(sessionId, { content: 'Hello' });
 * ```
 */
export class Parley {
  readonly sessions: Sessions;
  readonly messages: Messages;
  readonly tools: Tools;
  /** The base URL requests go to. */
  readonly baseUrl: string;
  /** The `tracer` option, if given. */
  readonly tracer: TracerOption | undefined;

  constructor(options: ParleyOptions = {}) {
    const baseUrl = options.baseUrl ?? readEnv(BASE_URL_ENV);
    if (typeof baseUrl !== 'string' || baseUrl === '') {
      throw new TypeError(
        `new Parley() needs a base URL and a token: pass { baseUrl, token } or set the ${BASE_URL_ENV} and ${TOKEN_ENV} environment variables`,
      );
    }
    this.baseUrl = baseUrl;
    this.tracer = checkTracer(options.tracer);
    const token = options.token ?? (options.getToken ? undefined : readEnv(TOKEN_ENV));
    const http = new HttpClient({
      baseUrl,
      token,
      getToken: options.getToken,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      headers: options.headers ?? {},
      logger: options.logger,
      logLevel: resolveLogLevel(options),
      tracer: this.tracer,
    });
    warnUnknownOptions(options, 'new Parley()');
    this.sessions = new Sessions(http);
    this.tools = new Tools(http);
    this.messages = new Messages(
      http,
      {
        firstEventTimeoutMs: options.streamFirstEventTimeoutMs ?? DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS,
        idleTimeoutMs: options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
      },
      this.tools,
    );
  }

  /**
   * Sends `content`, runs every tool the model asks for (in parallel, heartbeats included), submits
   * the results and resumes, until the model ends its turn or `maxSteps` replies were made. Await the
   * run for the result, or iterate it step by step.
   *
   * @example
   * ```ts
   * const result = await client.runToolLoop({ sessionId, content: 'Weather in Paris?', tools: [getWeather] });
   * console.log(result.status, result.finalText);
   * ```
   */
  runToolLoop(options: RunToolLoopOptions): ToolLoopRun {
    return runToolLoop(this, options);
  }
}

function resolveLogLevel(options: ParleyOptions): LogLevel {
  if (options.logLevel !== undefined) {
    if (!isLogLevel(options.logLevel)) {
      throw wrongValue(
        'new Parley()',
        'logLevel',
        "'debug', 'info', 'warn', 'error' or 'off'",
        options.logLevel,
      );
    }
    return options.logLevel;
  }
  const fromEnv = readEnv(LOG_LEVEL_ENV);
  // A mistyped variable must not silence or flood: it is ignored, with a word on the console.
  if (fromEnv !== undefined && isLogLevel(fromEnv)) return fromEnv;
  if (fromEnv !== undefined) {
    levelLogger(options.logger ?? console, 'warn').warn?.(
      `[parley] ${LOG_LEVEL_ENV}=${fromEnv} is not a log level (debug, info, warn, error, off): ignored`,
    );
  }
  // A logger says where lines go, not how many: the level is the same with or without one.
  return 'warn';
}

function checkTracer(tracer: unknown): TracerOption | undefined {
  if (tracer === undefined || tracer === 'global') return tracer;
  if (typeof (tracer as { startSpan?: unknown } | null)?.startSpan === 'function')
    return tracer as TracerOption;
  throw wrongValue(
    'new Parley()',
    'tracer',
    "an OpenTelemetry Tracer (trace.getTracer('my-app')) or 'global'",
    tracer,
  );
}
