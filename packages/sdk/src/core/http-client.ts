import ky, { type KyInstance } from 'ky';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  isParleyError,
  ParleyError,
  REQUEST_ID_HEADER,
  ResponseValidationError,
} from '../errors/index.js';
import { raceSignal } from '../internal/race-signal.js';
import type { Shape } from '../internal/shape.js';
import { sleep } from '../internal/sleep.js';
import { apiErrorFrom } from './api-error-from.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { baseUrlHint, connectionFailureMessage, REDIRECT, systemErrorCode } from './connection-failure.js';
import { type LevelLogger, type Logger, type LogLevel, levelLogger, redactedHeaders } from './log-level.js';
import { isRetryableStatus, provablyNotSent, rejectedUnprocessed, retryDelayMs } from './retry-policy.js';
import { validate, where } from './validate-response.js';

export type { Logger } from './log-level.js';

/**
 * A standard `fetch`, or any function that answers a `Request` (a server's in-process `fetch`
 * handler, msw, a test double). The SDK always calls it with a `Request`.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

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
}

/** Resolved client configuration the transport runs on. */
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
}

/** One call of the protocol. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL, without a leading slash: `v1/sessions`. */
  path: string;
  body?: unknown;
  query?: Record<string, string>;
  /**
   * Safe to send twice: GET, DELETE, heartbeat, tool response. Requests that are not are only
   * re-sent when the connection provably never reached the server.
   */
  idempotent: boolean;
  /** The fields of the 2xx body the SDK reads; without a shape, the body is read and ignored. */
  shape?: Shape;
}

/** A response whose body the caller reads itself (streaming). */
export interface OpenResponse {
  response: Response;
  /** Aborts the underlying fetch (the body stream errors). */
  abort(reason?: unknown): void;
  /** Aborted when the caller's signal aborts or `abort()` is called. */
  signal: AbortSignal;
  method: string;
  url: string;
}

class TimeoutReason extends Error {}

/** What the send hook needs beyond ky's request: the JSON body and the attempt's signal. */
interface SendContext {
  body: string | null;
  signal: AbortSignal;
  /** The call's own headers. */
  headers: Record<string, string> | undefined;
}

/**
 * The one transport under every resource: ky for the HTTP exchange, with retries, timeouts, auth,
 * error mapping and response validation owned here (ky's own retry and timeout are off). Each
 * attempt is raced against its signal, so an abort or a timeout rejects on time with the same
 * error whatever the `fetch` does (a real one, msw, or a server's in-process handler).
 */
export class HttpClient {
  readonly #config: HttpClientConfig;
  readonly #ky: KyInstance;
  /** Headers every request carries (`accept`, then the client's `headers` option). */
  readonly #headers: Array<[string, string]>;
  readonly #log: LevelLogger;
  /** Appended to connection errors and 404s when the base URL looks wrong. */
  readonly #hint: string;

  constructor(config: HttpClientConfig) {
    this.#config = config;
    this.#log = levelLogger(config.logger ?? console, config.logLevel);
    this.#hint = baseUrlHint(config.baseUrl);
    if (this.#hint) this.#log.warn?.(`[parley]${this.#hint}`);
    this.#headers = Object.entries({ accept: 'application/json', ...config.headers });
    this.#ky = ky.create({
      prefixUrl: config.baseUrl,
      // ky's own retries and error throwing are off: the SDK owns them. (ky's timeout never runs:
      // the hook answers every request.)
      retry: 0,
      throwHttpErrors: false,
      hooks: {
        beforeRequest: [(request, { context }) => this.#send(request, context as unknown as SendContext)],
      },
    });
  }

  /**
   * Sends the request ky built (URL, query, hooks) with the client's and the call's headers, the
   * token, the JSON body and the attempt's signal. A hook that returns a Response skips ky's own
   * fetch step, which clones the request (a tee of its body, for ky's retries) and wraps the call in
   * ky's timeout: retries and timeouts are the SDK's. Body, signal and headers are not given to ky
   * (a body stream, an `AbortSignal.any` and two header copies per call that the sent request does
   * not need), and `fetch` gets URL and init, since copying a ready Request costs more than the rest
   * of ky's work. Redirects are refused: a redirected POST can come back as a GET without its body
   * (silent loss), the service never redirects, and a fetch that may follow one first copies the
   * request and tees its body. The global fetch is looked up per call (msw may patch it later); a
   * `fetch` given as an option gets one Request carrying the signal, so an in-process server sees
   * the client go away.
   */
  async #send(request: Request, { body, signal, headers }: SendContext): Promise<Response> {
    for (const [name, value] of this.#headers) request.headers.set(name, value);
    if (headers) for (const name in headers) request.headers.set(name, headers[name] as string);
    const token = await this.#resolveToken();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    if (body !== null && !request.headers.has('content-type')) {
      request.headers.set('content-type', 'application/json');
    }
    this.#log.debug?.(`[parley] → ${request.method} ${request.url} (${redactedHeaders(request.headers)})`);
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      body,
      signal,
      redirect: 'error',
    };
    const fetch = this.#config.fetch;
    return fetch ? fetch(new Request(request.url, init)) : globalThis.fetch(request.url, init);
  }

  /** Sends a request and returns its checked body (and, through `withResponse()`, the response). */
  request<T>(spec: RequestSpec, options: RequestOptions = {}): APIPromise<T> {
    return new APIPromise(
      this.#execute(spec, options, false, async (response, ctx): Promise<WithResponse<T>> => {
        const text = await response.text();
        const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
        const result = { response, requestId, data: undefined as T };
        if (!spec.shape) return result;
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
        result.data = validate<T>(spec.shape, data, { ...ctx, requestId });
        return result;
      }),
    );
  }

  /** Sends a request and hands back the 2xx response unread, with a handle to abort it. */
  open(spec: RequestSpec, options: RequestOptions = {}): Promise<OpenResponse> {
    return this.#execute(spec, options, true, async (response, ctx) => ({ response, ...ctx }));
  }

  async #execute<R>(
    spec: RequestSpec,
    options: RequestOptions,
    open: boolean,
    onSuccess: (response: Response, ctx: Omit<OpenResponse, 'response'>) => Promise<R>,
  ): Promise<R> {
    const method = spec.method;
    const url = this.#url(spec);
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs;
    const userSignal = options.signal;
    const log = this.#log;
    const body = spec.body === undefined ? null : JSON.stringify(spec.body);

    for (let retry = 0; ; retry++) {
      if (userSignal?.aborted) {
        throw new APIUserAbortError(`Request was aborted (${method} ${url})`, { cause: userSignal.reason });
      }
      const controller = new AbortController();
      // The caller's abort is forwarded by a listener rather than AbortSignal.any, which costs more
      // than the rest of the attempt's bookkeeping together; it is removed once the attempt is
      // over (an open response keeps it: its body is still to be read).
      const forward = userSignal ? () => controller.abort(userSignal.reason) : undefined;
      if (forward) userSignal?.addEventListener('abort', forward, { once: true });
      let keepForwarding = false;
      const signal = controller.signal;
      const timer = setTimeout(() => controller.abort(new TimeoutReason()), timeoutMs);
      const ctx = { abort: (reason?: unknown) => controller.abort(reason), signal, method, url };
      let retryError: ParleyError;
      let retryHeaders: Headers | undefined;
      try {
        if (retry > 0) log.debug?.(`[parley] ${method} ${url} (retry ${retry})`);
        const sent = this.#ky(spec.path, {
          method,
          context: { body, signal, headers: options.headers } satisfies SendContext,
          ...(spec.query ? { searchParams: spec.query } : {}),
        });
        // A fetch that ignores its signal (an in-process handler holding its answer) must not
        // hold the call past its deadline or turn an abort into a server error.
        const response = await raceSignal(sent, signal);
        log.debug?.(
          `[parley] ← ${response.status} ${method} ${url} (request ${response.headers.get(REQUEST_ID_HEADER) ?? 'without id'})`,
        );
        if (response.ok) {
          const result = await raceSignal(onSuccess(response, ctx), signal);
          keepForwarding = open;
          return result;
        }
        const error = await raceSignal(
          apiErrorFrom(response, method, url, response.status === 404 ? this.#hint : ''),
          signal,
        );
        const retryable = spec.idempotent
          ? isRetryableStatus(response.status)
          : rejectedUnprocessed(response.status);
        if (!retryable || retry >= maxRetries) throw error;
        retryError = error;
        retryHeaders = response.headers;
      } catch (raw) {
        const error = this.#classify(raw, { userSignal, controller, method, url, timeoutMs });
        const retryable =
          error instanceof APIConnectionError &&
          (spec.idempotent || provablyNotSent(raw)) &&
          systemErrorCode(raw) !== REDIRECT &&
          retry < maxRetries;
        if (!retryable) throw error;
        retryError = error;
      } finally {
        clearTimeout(timer);
        if (forward && !keepForwarding) userSignal?.removeEventListener('abort', forward);
      }
      const delay = retryDelayMs(retry, retryHeaders);
      log.debug?.(`[parley] ${retryError.message}; retrying in ${delay} ms`);
      await sleep(delay, userSignal);
    }
  }

  #classify(
    raw: unknown,
    ctx: {
      userSignal: AbortSignal | undefined;
      controller: AbortController;
      method: string;
      url: string;
      timeoutMs: number;
    },
  ): ParleyError {
    if (isParleyError(raw)) return raw;
    const where = `${ctx.method} ${ctx.url}`;
    if (ctx.userSignal?.aborted) {
      return new APIUserAbortError(`Request was aborted (${where})`, { cause: ctx.userSignal.reason });
    }
    if (ctx.controller.signal.reason instanceof TimeoutReason) {
      return new APITimeoutError(`Request timed out after ${ctx.timeoutMs} ms (${where})`, { cause: raw });
    }
    return new APIConnectionError(connectionFailureMessage(raw, where, this.#config.baseUrl, this.#hint), {
      cause: raw,
    });
  }

  async #resolveToken(): Promise<string | undefined> {
    if (!this.#config.getToken) return this.#config.token;
    try {
      return await this.#config.getToken();
    } catch (cause) {
      throw new ParleyError('getToken() failed', { cause });
    }
  }

  #url(spec: RequestSpec): string {
    const query = spec.query ? `?${new URLSearchParams(spec.query).toString()}` : '';
    return `${this.#config.baseUrl.replace(/\/+$/, '')}/${spec.path}${query}`;
  }
}
