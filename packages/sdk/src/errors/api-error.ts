import type { ErrorCode, ErrorDetails } from '../wire/index.js';
import { CLASS_BRAND, ParleyError } from './parley-error.js';
import { parseRetryAfter } from './retry-after.js';

/** The header that carries the server's request id (the protocol's `REQUEST_ID_HEADER`). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an {@link APIError} is built from: the HTTP exchange and the parsed error body. */
export interface APIErrorInit {
  status: number;
  /** The error code from the body (`session_not_found`, ...), or `undefined` when the body had none. */
  code?: ErrorCode | (string & {}) | undefined;
  /** The server's message from the body (falls back to the status text). */
  serverMessage?: string | undefined;
  details?: ErrorDetails | Record<string, unknown> | undefined;
  headers: Headers;
  method: string;
  url: string;
  /** A sentence appended to the message (e.g. about a base URL that ends in `/v1`). */
  hint?: string | undefined;
  cause?: unknown;
}

/**
 * The server answered with a non-2xx status. Subclasses by status: {@link APIError.generate}. The
 * message names the method, the URL and the server's request id.
 */
export class APIError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'APIError';
  override readonly name: string = 'APIError';
  readonly status: number;
  /** The error code from `{ error: { code } }`, e.g. `session_not_found`. */
  readonly code: ErrorCode | (string & {}) | undefined;
  /**
   * Machine-readable details from the body, typed by the codes that carry them
   * (`ErrorDetailsByCode`): `openToolCalls` with `tool_calls_open`, `issues` with
   * `invalid_request`, `retryAfterSeconds` with `quota_exceeded`, ...
   */
  readonly details: ErrorDetails | undefined;
  /** The server's `x-request-id`: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The server's own message from `{ error: { message } }`, without the method and URL. */
  readonly serverMessage: string | undefined;
  readonly headers: Headers;
  readonly method: string;
  readonly url: string;

  constructor(init: APIErrorInit) {
    const what = init.code ? `${init.status} ${init.code}` : `${init.status}`;
    const text = init.serverMessage ?? 'no error message';
    const requestId = init.headers.get(REQUEST_ID_HEADER) ?? undefined;
    const request = requestId === undefined ? '' : `, request ${requestId}`;
    super(`${what}: ${text} (${init.method.toUpperCase()} ${init.url}${request})${init.hint ?? ''}`, {
      cause: init.cause,
    });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details as ErrorDetails | undefined;
    this.serverMessage = init.serverMessage;
    this.headers = init.headers;
    this.requestId = requestId;
    this.method = init.method.toUpperCase();
    this.url = init.url;
  }

  /** Builds the subclass that matches the status (`404` → {@link NotFoundError}, ...). */
  static generate(init: APIErrorInit): APIError {
    switch (init.status) {
      case 400:
        return new BadRequestError(init);
      case 401:
        return new AuthenticationError(init);
      case 403:
        return new PermissionDeniedError(init);
      case 404:
        return new NotFoundError(init);
      case 409:
        return new ConflictError(init);
      case 413:
        return new PayloadTooLargeError(init);
      case 429:
        return new RateLimitError(init);
      default:
        return init.status >= 500 ? new InternalServerError(init) : new APIError(init);
    }
  }
}

/** 400: the body or a parameter breaks the schema, or names an unknown agent/model/provider. */
export class BadRequestError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'BadRequestError';
  override readonly name = 'BadRequestError' as const;
}
/** 401: missing or unknown token. */
export class AuthenticationError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'AuthenticationError';
  override readonly name = 'AuthenticationError' as const;
}
/** 403: the token may not do this. */
export class PermissionDeniedError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'PermissionDeniedError';
  override readonly name = 'PermissionDeniedError' as const;
}
/** 404: session, message, tool call or route not found (another user's resources look missing too). */
export class NotFoundError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'NotFoundError';
  override readonly name = 'NotFoundError' as const;
}
/** 409: reply in progress, tool calls open, resume required, tool call already terminal, ... */
export class ConflictError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ConflictError';
  override readonly name = 'ConflictError' as const;
}
/** 413: the request body is larger than the server accepts. */
export class PayloadTooLargeError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'PayloadTooLargeError';
  override readonly name = 'PayloadTooLargeError' as const;
}
/** 429: quota used up. `retryAfterMs` is parsed from `retry-after-ms` / `Retry-After` when present. */
export class RateLimitError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'RateLimitError';
  override readonly name = 'RateLimitError' as const;
  readonly retryAfterMs: number | undefined;
  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfterMs = parseRetryAfter(init.headers);
  }
}
/** 5xx: the server or the model failed. */
export class InternalServerError extends APIError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'InternalServerError';
  override readonly name = 'InternalServerError' as const;
}
