import { type ErrorCode, REQUEST_ID_HEADER } from '@parley/protocol';
import type { z } from 'zod';

/**
 * Every error the SDK throws is a `ParleyError`. Guards (`isParleyError`, `isNotFoundError`, ...)
 * check a `Symbol.for` brand and `name` rather than `instanceof`, so they work across duplicate
 * copies of the package and across realms.
 */
const BRAND = Symbol.for('parley.error');

/** Base class of every error the SDK throws. */
export class ParleyError extends Error {
  override readonly name: string = 'ParleyError';
  readonly [BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

function hasBrand(value: unknown): value is ParleyError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

function named<N extends string>(value: unknown, ...names: N[]): boolean {
  return hasBrand(value) && (names as string[]).includes(value.name);
}

/** What an {@link APIError} is built from: the HTTP exchange and the parsed error body. */
export interface APIErrorInit {
  status: number;
  /** The error code from the body (`session_not_found`, ...), or `undefined` when the body had none. */
  code?: ErrorCode | (string & {}) | undefined;
  /** The server's message from the body (falls back to the status text). */
  serverMessage?: string | undefined;
  details?: Record<string, unknown> | undefined;
  headers: Headers;
  method: string;
  url: string;
  cause?: unknown;
}

/** The server answered with a non-2xx status. Subclasses by status: {@link APIError.generate}. */
export class APIError extends ParleyError {
  override readonly name: string = 'APIError';
  readonly status: number;
  /** The error code from `{ error: { code } }`, e.g. `session_not_found`. */
  readonly code: ErrorCode | (string & {}) | undefined;
  /** Machine-readable details from the body (e.g. `openToolCalls`). */
  readonly details: Record<string, unknown> | undefined;
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
    super(`${what}: ${text} (${init.method.toUpperCase()} ${init.url})`, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.serverMessage = init.serverMessage;
    this.headers = init.headers;
    this.requestId = init.headers.get(REQUEST_ID_HEADER) ?? undefined;
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
  override readonly name = 'BadRequestError' as const;
}
/** 401: missing or unknown token. */
export class AuthenticationError extends APIError {
  override readonly name = 'AuthenticationError' as const;
}
/** 403: the token may not do this. */
export class PermissionDeniedError extends APIError {
  override readonly name = 'PermissionDeniedError' as const;
}
/** 404: session, message, tool call or route not found (another user's resources look missing too). */
export class NotFoundError extends APIError {
  override readonly name = 'NotFoundError' as const;
}
/** 409: reply in progress, tool calls open, resume required, tool call already terminal, ... */
export class ConflictError extends APIError {
  override readonly name = 'ConflictError' as const;
}
/** 413: the request body is larger than the server accepts. */
export class PayloadTooLargeError extends APIError {
  override readonly name = 'PayloadTooLargeError' as const;
}
/** 429: quota used up. `retryAfterMs` is parsed from `retry-after-ms` / `Retry-After` when present. */
export class RateLimitError extends APIError {
  override readonly name = 'RateLimitError' as const;
  readonly retryAfterMs: number | undefined;
  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfterMs = parseRetryAfter(init.headers);
  }
}
/** 5xx: the server or the model failed. */
export class InternalServerError extends APIError {
  override readonly name = 'InternalServerError' as const;
}

/** The request never got an HTTP response: DNS, refused connection, reset socket, ... */
export class APIConnectionError extends ParleyError {
  override readonly name: string = 'APIConnectionError';
  constructor(message = 'Connection error', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request (or a stream's first event / idle gap) exceeded its time limit. */
export class APITimeoutError extends APIConnectionError {
  override readonly name = 'APITimeoutError' as const;
  constructor(message = 'Request timed out', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The caller aborted through its `AbortSignal` (or `stream.abort()`). */
export class APIUserAbortError extends ParleyError {
  override readonly name = 'APIUserAbortError' as const;
  constructor(message = 'Request was aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A 2xx response whose body does not match the protocol schema. `issues` are zod's, as data. */
export class ResponseValidationError extends ParleyError {
  override readonly name = 'ResponseValidationError' as const;
  readonly issues: z.core.$ZodIssue[];
  /** The body as received. */
  readonly body: unknown;
  constructor(message: string, init: { issues: z.core.$ZodIssue[]; body: unknown; cause?: unknown }) {
    super(message, { cause: init.cause });
    this.issues = init.issues;
    this.body = init.body;
  }
}

/** What a stream had delivered when it broke. */
export interface StreamErrorInit {
  /** Events received before the failure. */
  eventCount: number;
  /** The kind of the last event received (`contentBlockDelta`, ...), if any. */
  lastEventKind?: string | undefined;
  /** For an exception event: its kind (`modelStreamErrorException`, ...). */
  exceptionKind?: string | undefined;
  /** For an exception event: its Parley code (`model_error`, ...). */
  code?: string | undefined;
  cause?: unknown;
}

/**
 * A stream that broke: an exception event, a body that ended early (no `]}` or no `replyStop`),
 * malformed JSON, or an idle gap. The message names what was received.
 */
export class StreamError extends ParleyError {
  override readonly name = 'StreamError' as const;
  readonly eventCount: number;
  readonly lastEventKind: string | undefined;
  readonly exceptionKind: string | undefined;
  readonly code: string | undefined;
  constructor(message: string, init: StreamErrorInit) {
    const tail = `after ${init.eventCount} event${init.eventCount === 1 ? '' : 's'}${
      init.lastEventKind ? `, last ${init.lastEventKind}` : ''
    }`;
    super(`${message} (${tail})`, { cause: init.cause });
    this.eventCount = init.eventCount;
    this.lastEventKind = init.lastEventKind;
    this.exceptionKind = init.exceptionKind;
    this.code = init.code;
  }
}

/** Why a tool call was lost while a worker held it. */
export type ToolCallLostReason = 'ABANDONED' | 'NOT_FOUND' | 'TIMED_OUT';

/**
 * A tool call the worker can no longer settle: abandoned on the server (409), gone (404), or no
 * heartbeat succeeded for longer than the server's timeout.
 */
export class ToolCallLostError extends ParleyError {
  override readonly name = 'ToolCallLostError' as const;
  readonly reason: ToolCallLostReason;
  readonly sessionId: string;
  readonly requestId: string;
  constructor(
    message: string,
    init: { reason: ToolCallLostReason; sessionId: string; requestId: string; cause?: unknown },
  ) {
    super(message, { cause: init.cause });
    this.reason = init.reason;
    this.sessionId = init.sessionId;
    this.requestId = init.requestId;
  }
}

/**
 * A tool ran but its report (response or failure) could not be delivered, even after retries. The
 * result is kept here: send it again later with `client.tools.respond` / `client.tools.fail` (an
 * identical repeat is harmless on the server).
 */
export class ToolReportError extends ParleyError {
  override readonly name = 'ToolReportError' as const;
  readonly sessionId: string;
  readonly requestId: string;
  /** What was to be reported: the output, or the failure message. */
  readonly report: { kind: 'complete'; output: Record<string, unknown> } | { kind: 'error'; message: string };
  constructor(
    message: string,
    init: {
      sessionId: string;
      requestId: string;
      report: ToolReportError['report'];
      cause?: unknown;
    },
  ) {
    super(message, { cause: init.cause });
    this.sessionId = init.sessionId;
    this.requestId = init.requestId;
    this.report = init.report;
  }
}

const API_ERROR_NAMES = [
  'APIError',
  'BadRequestError',
  'AuthenticationError',
  'PermissionDeniedError',
  'NotFoundError',
  'ConflictError',
  'PayloadTooLargeError',
  'RateLimitError',
  'InternalServerError',
];

export const isParleyError = (value: unknown): value is ParleyError => hasBrand(value);
export const isAPIError = (value: unknown): value is APIError => named(value, ...API_ERROR_NAMES);
export const isBadRequestError = (value: unknown): value is BadRequestError =>
  named(value, 'BadRequestError');
export const isAuthenticationError = (value: unknown): value is AuthenticationError =>
  named(value, 'AuthenticationError');
export const isPermissionDeniedError = (value: unknown): value is PermissionDeniedError =>
  named(value, 'PermissionDeniedError');
export const isNotFoundError = (value: unknown): value is NotFoundError => named(value, 'NotFoundError');
export const isConflictError = (value: unknown): value is ConflictError => named(value, 'ConflictError');
export const isPayloadTooLargeError = (value: unknown): value is PayloadTooLargeError =>
  named(value, 'PayloadTooLargeError');
export const isRateLimitError = (value: unknown): value is RateLimitError => named(value, 'RateLimitError');
export const isInternalServerError = (value: unknown): value is InternalServerError =>
  named(value, 'InternalServerError');
export const isAPIConnectionError = (value: unknown): value is APIConnectionError =>
  named(value, 'APIConnectionError', 'APITimeoutError');
export const isAPITimeoutError = (value: unknown): value is APITimeoutError =>
  named(value, 'APITimeoutError');
export const isAPIUserAbortError = (value: unknown): value is APIUserAbortError =>
  named(value, 'APIUserAbortError');
export const isResponseValidationError = (value: unknown): value is ResponseValidationError =>
  named(value, 'ResponseValidationError');
export const isStreamError = (value: unknown): value is StreamError => named(value, 'StreamError');
export const isToolReportError = (value: unknown): value is ToolReportError =>
  named(value, 'ToolReportError');
export const isToolCallLostError = (value: unknown): value is ToolCallLostError =>
  named(value, 'ToolCallLostError');

/** Longest server-requested wait the SDK honours. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Reads `retry-after-ms`, then `Retry-After` (seconds or an HTTP date). Returns `undefined` when
 * absent, unparsable or negative; caps at {@link MAX_RETRY_AFTER_MS}.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.min(value, MAX_RETRY_AFTER_MS);
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds))
    return seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}
