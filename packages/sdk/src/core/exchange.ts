import { type Input, isHTTPError, isTimeoutError, type Options, type ShouldRetryState } from 'ky';
import {
  APIConnectionError,
  type APIError,
  ParleyError,
  parseRetryAfter,
  REQUEST_ID_HEADER,
} from '../errors/index.js';
import { raceSignal } from '../internal/race-signal.js';
import { apiErrorFrom } from './api-error-from.js';
import { connectionFailureMessage, neverSent, REDIRECT, systemErrorCode } from './connection-failure.js';
import { redactedHeaders } from './log-level.js';
import type { FetchLike, RequestSpec } from './request-spec.js';
import { backoffMs, isRetryableStatus, rejectedUnprocessed } from './retry-policy.js';

/** What an exchange needs of its client. */
export interface ExchangeHost {
  /** The client's `fetch` option; the global fetch when not given. */
  fetch: FetchLike | undefined;
  /** The client's `getToken` option: asked for a token on each attempt. */
  getToken: (() => string | Promise<string>) | undefined;
  baseUrl: string;
  /** Appended to connection errors and 404s when the base URL looks wrong. */
  hint: string;
  debug: ((line: string) => void) | undefined;
}

/** The methods the SDK sends. ky checks a method before it asks `shouldRetry`, which decides. */
const METHODS = ['get', 'post', 'delete'];

/**
 * One call as ky runs it: the per-call ky options, with the transport ky fetches through and the
 * retry policy ky asks. ky owns the attempts (count, timeout, wait, hooks); this object remembers
 * what the last attempt read, so a 2xx body and an error body reach the caller whole.
 */
export class Exchange {
  /** The options of the ky call. */
  readonly options: Options;
  /** The URL, for messages. */
  readonly url: string;
  /** The method and URL, for messages: `GET http://…/v1/sessions`. */
  readonly where: string;
  /** The last attempt's body: a buffered response's, or an error response's (`''` if unreadable). */
  text = '';
  readonly #host: ExchangeHost;
  readonly #spec: RequestSpec;
  readonly #signal: AbortSignal | undefined;
  readonly #streaming: boolean;
  /** The connection failure the last attempt met, when the policy allows it another attempt. */
  #retryable: APIConnectionError | undefined;
  /** The wait `shouldRetry` decided on; ky's `delay` returns it. */
  #waitMs = 0;

  constructor(
    host: ExchangeHost,
    spec: RequestSpec,
    call: { url: string; signal: AbortSignal | undefined; limit: number; streaming: boolean },
  ) {
    this.#host = host;
    this.#spec = spec;
    this.#signal = call.signal;
    this.#streaming = call.streaming;
    this.url = call.url;
    this.where = `${spec.method} ${call.url}`;
    this.options = {
      method: spec.method,
      json: spec.body,
      fetch: (request, init) => this.#fetch(request, init),
      retry: {
        limit: call.limit,
        methods: METHODS,
        shouldRetry: (state) => this.#shouldRetry(state),
        // ky's `delay` sees only the attempt number: the wait (the server's or the backoff) is
        // worked out by `shouldRetry`, which sees the failure.
        delay: () => this.#waitMs,
      },
    };
    if (spec.query) this.options.searchParams = spec.query;
  }

  /** The typed error of a non-2xx response ky reports (`HTTPError.response`), with its body. */
  apiError(response: Response): APIError {
    return apiErrorFrom(
      response,
      this.text,
      this.#spec.method,
      this.url,
      response.status === 404 ? this.#host.hint : '',
    );
  }

  /**
   * ky's `fetch`: asks `getToken()` for the attempt's token, sends the Request ky built through the
   * client's fetch (looked up per call: msw may patch the global one later), then reads the body
   * within the attempt, so that ky's timeout covers a `getToken` that never settles as well as the
   * last byte, and a body that breaks off is a failed attempt ky may retry. A stream's
   * 2xx body is left to its reader. With a `fetch` option the attempt is raced against the
   * request's signal: a fetch that ignores it (an in-process handler holding its answer) cannot
   * hold the call past an abort. A failed connection becomes an `APIConnectionError` here.
   */
  async #fetch(input: Input, init: RequestInit | undefined): Promise<Response> {
    // ky always passes the Request it built (its type also allows a URL).
    const request = input instanceof Request ? input : new Request(input, init);
    const signal = request.signal;
    try {
      const { getToken } = this.#host;
      if (getToken) {
        const token = await raceSignal(resolveToken(getToken), signal);
        if (token) request.headers.set('authorization', `Bearer ${token}`);
      }
      this.#host.debug?.(`[parley] → ${request.method} ${request.url} (${redactedHeaders(request.headers)})`);
      // The platform's fetch (and msw's) follows the signal; a `fetch` option may not.
      const received = this.#receive(request, init);
      const { response, text } = await (this.#host.fetch ? raceSignal(received, signal) : received);
      // An attempt ky gave up on (its timeout) keeps nothing.
      signal.throwIfAborted();
      this.text = text;
      return response;
    } catch (error) {
      // ky's timeout and the caller's abort: ky and the client tell them apart.
      if (signal.aborted || error instanceof ParleyError) throw error;
      throw this.#connectionFailed(error);
    }
  }

  /** Sends `request` and reads what the attempt needs of the answer (see {@link Exchange.#fetch}). */
  async #receive(
    request: Request,
    init: RequestInit | undefined,
  ): Promise<{ response: Response; text: string }> {
    const fetch = this.#host.fetch ?? globalThis.fetch;
    const response = await fetch(request, init);
    this.#host.debug?.(
      `[parley] ← ${response.status} ${this.where} (request ${response.headers.get(REQUEST_ID_HEADER) ?? 'without id'})`,
    );
    if (response.ok) return { response, text: this.#streaming ? '' : await response.text() };
    // An error body that cannot be read still leaves the status: a useful error.
    const text = await response.text().catch((error: unknown) => {
      if (request.signal.aborted) throw error;
      return '';
    });
    return { response, text };
  }

  #connectionFailed(error: unknown): APIConnectionError {
    const code = systemErrorCode(error);
    const failure = new APIConnectionError(
      connectionFailureMessage(code, error, this.where, this.#host.baseUrl, this.#host.hint),
      { cause: error },
    );
    // A redirect is final; a request that is not safe to repeat goes again only when it provably
    // never reached the server.
    const retryable = code !== REDIRECT && (this.#spec.idempotent || neverSent(code));
    this.#retryable = retryable ? failure : undefined;
    return failure;
  }

  /**
   * ky's `shouldRetry`: a repeat-safe request on a connection failure, a timeout, 408, 429 or 5xx
   * (not 501); any other request only when it provably never reached the server or on 429. Never
   * once the caller aborted. Sets the wait: the server's `retry-after-ms` / `Retry-After` (the
   * parser `RateLimitError.retryAfterMs` uses), else the backoff.
   */
  #shouldRetry({ error, retryCount }: ShouldRetryState): boolean {
    if (this.#signal?.aborted) return false;
    let fromServer: number | undefined;
    if (isHTTPError(error)) {
      const status = error.response.status;
      if (!(this.#spec.idempotent ? isRetryableStatus(status) : rejectedUnprocessed(status))) return false;
      fromServer = parseRetryAfter(error.response.headers);
    } else if (isTimeoutError(error)) {
      if (!this.#spec.idempotent) return false;
    } else if (error !== this.#retryable) {
      return false;
    }
    this.#waitMs = fromServer ?? backoffMs(retryCount);
    const debug = this.#host.debug;
    if (debug) {
      const what = isHTTPError(error) ? this.apiError(error.response).message : error.message;
      debug(`[parley] ${what}; retrying in ${this.#waitMs} ms`);
    }
    return true;
  }
}

async function resolveToken(getToken: () => string | Promise<string>): Promise<string> {
  try {
    return await getToken();
  } catch (cause) {
    throw new ParleyError('getToken() failed', { cause });
  }
}
