import ky, { type Hooks, isHTTPError, isTimeoutError, type KyInstance } from 'ky';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  ParleyError,
  REQUEST_ID_HEADER,
  ResponseValidationError,
} from '../errors/index.js';
import { linkedSignal } from '../internal/linked-signal.js';
import { loadOnce } from '../internal/load-once.js';
import { MAX_TIMER_MS } from '../internal/timer-delay.js';
import { wrongValue } from '../internal/wrong-value.js';
import { activeContext } from '../tracing/active-context.js';
import type { ContextLike, TracerOption } from '../tracing/tracer-like.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { baseUrlHint, connectionFailureMessage, systemErrorCode } from './connection-failure.js';
import { Exchange, type ExchangeHost } from './exchange.js';
import { checkLogger, type Logger, type LogLevel, levelLogger } from './log-level.js';
import type { FetchLike, RequestSpec } from './request-spec.js';
import { validate, where } from './validate-response.js';

/** The code of request spans, loaded on the first traced call. */
const loadTraceRequest = loadOnce(() => import('../tracing/trace-request.js'));

export type { Logger } from './log-level.js';
export type { FetchLike } from './request-spec.js';

/** Options every resource method accepts as its last argument. */
export interface RequestOptions {
  /** Aborts the request (and any retry wait); the call rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Time limit of each attempt in ms, from sending to the last byte of the body. */
  timeoutMs?: number;
  /** Extra headers for this request. */
  headers?: Record<string, string>;
  /** Overrides the client's `maxRetries` for this request (only repeat-safe requests retry). */
  maxRetries?: number;
  /**
   * The OpenTelemetry context whose span is the parent of this request's span (with the client's
   * `tracer`), e.g. `trace.setSpan(context.active(), span)`. Default: the active context.
   */
  traceContext?: ContextLike | undefined;
}

/**
 * Resolved client configuration the transport runs on.
 *
 * @internal
 */
export interface HttpClientConfig {
  baseUrl: string;
  token?: string | undefined;
  getToken?: (() => string | Promise<string>) | undefined;
  fetch?: FetchLike | undefined;
  timeoutMs: number;
  maxRetries: number;
  headers: Record<string, string>;
  /** Where lines go; `console` when not given. */
  logger?: Logger | undefined;
  /** Lines below this level are not built. */
  logLevel: LogLevel;
  /** Where the spans of requests go; none when not given. */
  tracer?: TracerOption | undefined;
}

/**
 * A response whose body the caller reads itself (streaming).
 *
 * @internal
 */
export interface OpenResponse {
  response: Response;
}

/**
 * The one transport under every resource: ky sends every request. ky's `retry` carries the SDK's
 * policy (an `Exchange` per call: which failures go again, and the wait), its `timeout` the
 * per-attempt time limit (`getToken()` included), its hooks the debug lines; ky's `HTTPError`
 * becomes the SDK's typed error with the body the attempt read. Requests refuse redirects: a redirected POST
 * can come back as a GET without its body (silent loss), and the service never redirects.
 *
 * @internal
 */
export class HttpClient {
  readonly #config: HttpClientConfig;
  readonly #ky: KyInstance;
  readonly #host: ExchangeHost;
  /** The base URL without trailing slashes. */
  readonly #base: string;

  constructor(config: HttpClientConfig) {
    checkTimeout(config.timeoutMs, 'new Parley()');
    checkLogger(config.logger);
    this.#config = config;
    this.#base = config.baseUrl.replace(/\/+$/, '');
    const log = levelLogger(config.logger ?? console, config.logLevel);
    const hint = baseUrlHint(config.baseUrl);
    if (hint) log.warn?.(`[parley]${hint}`);
    this.#host = {
      fetch: config.fetch,
      getToken: config.getToken,
      baseUrl: config.baseUrl,
      hint,
      debug: log.debug,
    };
    // Each attempt's request line is the exchange's, once its token is set; a retry is noted here.
    const debug = log.debug;
    const hooks: Hooks | undefined = debug && {
      beforeRetry: [
        ({ request, retryCount }) => {
          debug(`[parley] ${request.method} ${request.url} (retry ${retryCount})`);
        },
      ],
    };
    // A token from getToken() is asked for on each attempt, within it (the exchange's fetch); a
    // fixed one is a header like the others.
    const token = config.getToken ? undefined : config.token;
    this.#ky = ky.create({
      prefixUrl: config.baseUrl,
      headers: {
        accept: 'application/json',
        ...config.headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      timeout: config.timeoutMs,
      redirect: 'error',
      // Only with a hook: ky merges the client's hooks into each request's options.
      ...(hooks && { hooks }),
    });
  }

  /** The `tracer` option: spans of requests, and of what runs on this client, go there. */
  get tracer(): TracerOption | undefined {
    return this.#config.tracer;
  }

  /** Sends a request and returns its checked body (and, through `withResponse()`, the response). */
  request<T>(spec: RequestSpec, options: RequestOptions = {}): APIPromise<T> {
    return new APIPromise(
      this.#call(spec, options, false, (exchange) => this.#request<T>(spec, options, exchange)),
    );
  }

  async #request<T>(
    spec: RequestSpec,
    options: RequestOptions,
    exchange: Exchange,
  ): Promise<WithResponse<T>> {
    const response = await this.#send(spec, exchange, options, false);
    const { text } = exchange;
    const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
    const result = { response, requestId, data: undefined as T };
    if (!spec.shape) return result;
    const ctx = { method: spec.method, url: exchange.url, requestId };
    let data: unknown;
    try {
      data = text === '' ? undefined : JSON.parse(text);
    } catch (cause) {
      throw new ResponseValidationError(`Response body is not JSON (${where(ctx, requestId)})`, {
        issues: [],
        body: text,
        cause,
      });
    }
    result.data = validate<T>(spec.shape, data, ctx);
    return result;
  }

  /** Sends a request and hands back the 2xx response with its body unread. */
  open(spec: RequestSpec, options: RequestOptions = {}): Promise<OpenResponse> {
    return this.#call(spec, options, true, async (exchange) => ({
      response: await this.#send(spec, exchange, options, true),
    }));
  }

  /**
   * Runs `call` on a new exchange; with a tracer, inside the request's span (the tracing code loads
   * on the first traced call).
   */
  async #call<R extends { response: Response }>(
    spec: RequestSpec,
    options: RequestOptions,
    streaming: boolean,
    call: (exchange: Exchange) => Promise<R>,
  ): Promise<R> {
    const exchange = this.#exchange(spec, options, streaming);
    const { tracer } = this.#config;
    if (!tracer) return call(exchange);
    // The span's parent: the call's `traceContext`, else the context active as the call is made.
    const parent = options.traceContext ?? activeContext();
    const { traceRequest } = await loadTraceRequest();
    const traced = { method: spec.method, path: spec.path, url: exchange.url, options: exchange.options };
    return traceRequest(tracer, traced, parent, () => call(exchange));
  }

  #exchange(spec: RequestSpec, options: RequestOptions, streaming: boolean): Exchange {
    const exchange = new Exchange(this.#host, spec, {
      url: this.#url(spec),
      signal: options.signal,
      limit: options.maxRetries ?? this.#config.maxRetries,
      streaming,
    });
    if (options.timeoutMs !== undefined) exchange.options.timeout = options.timeoutMs;
    if (options.headers) exchange.options.headers = options.headers;
    return exchange;
  }

  async #send(
    spec: RequestSpec,
    exchange: Exchange,
    options: RequestOptions,
    streaming: boolean,
  ): Promise<Response> {
    if (options.timeoutMs !== undefined) checkTimeout(options.timeoutMs, exchange.where);
    const userSignal = options.signal;
    if (userSignal?.aborted) {
      throw new APIUserAbortError(`Request was aborted (${exchange.where})`, { cause: userSignal.reason });
    }
    // A buffered call hands ky a signal of its own, linked to the caller's until the call ends. ky
    // combines it with its timeout's through AbortSignal.any, and Node 20's AbortSignal.any keeps a
    // weak reference on each source for the source's lifetime: a long-lived caller's signal would
    // grow by one per call. (A stream's signal is the stream's own, and must outlive this call.)
    const linked = userSignal && !streaming ? linkedSignal(userSignal) : undefined;
    const signal = linked?.signal ?? userSignal;
    if (signal) exchange.options.signal = signal;
    try {
      return await this.#ky(spec.path, exchange.options);
    } catch (error) {
      throw this.#failure(error, exchange, options);
    } finally {
      linked?.unlink();
    }
  }

  /** The SDK's error for what a ky call threw. */
  #failure(error: unknown, exchange: Exchange, options: RequestOptions): ParleyError {
    // The transport's APIConnectionError, getToken()'s failure.
    if (error instanceof ParleyError) return error;
    if (isHTTPError(error)) return exchange.apiError(error.response);
    const where = exchange.where;
    if (options.signal?.aborted) {
      return new APIUserAbortError(`Request was aborted (${where})`, { cause: options.signal.reason });
    }
    if (isTimeoutError(error)) {
      const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs;
      return new APITimeoutError(`Request timed out after ${timeoutMs} ms (${where})`, { cause: error });
    }
    // Before anything was sent: a base URL ky cannot build a Request from, ...
    const message = connectionFailureMessage(
      systemErrorCode(error),
      error,
      where,
      this.#config.baseUrl,
      this.#host.hint,
    );
    return new APIConnectionError(message, { cause: error });
  }

  /** The URL a call goes to, for messages (what ky builds from the prefix URL and the path). */
  #url(spec: RequestSpec): string {
    const query = spec.query ? `?${new URLSearchParams(spec.query).toString()}` : '';
    return `${this.#base}/${spec.path}${query}`;
  }
}

/** ky's timeout is one `setTimeout`: a limit past the longest timer would fire at once. */
function checkTimeout(timeoutMs: number, where: string): void {
  if (typeof timeoutMs === 'number' && timeoutMs >= 0 && timeoutMs <= MAX_TIMER_MS) return;
  throw wrongValue(
    where,
    'timeoutMs',
    `a number of ms from 0 to ${MAX_TIMER_MS} (the longest timer)`,
    timeoutMs,
  );
}
