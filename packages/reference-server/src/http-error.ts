import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@parley/protocol';

/** Options of an {@link HttpError}. */
export interface HttpErrorOptions {
  /** Machine-readable details, rendered as `error.details`. `retryAfterSeconds` also sets `Retry-After`. */
  details?: Record<string, unknown>;
  /** Extra response headers. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A protocol error that renders itself: `{ "error": { "code", "message", "details"? } }` with the
 * status the `ERROR_CODES` table gives its code.
 *
 * @example
 * throw new HttpError('session_not_found', `Session ${id} was not found`);
 */
export class HttpError extends Error {
  override name = 'HttpError' as const;
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = options.details;
    this.headers = { ...options.headers };
    const retryAfter = options.details?.retryAfterSeconds;
    if (
      typeof retryAfter === 'number' &&
      Number.isFinite(retryAfter) &&
      this.headers['retry-after'] === undefined
    ) {
      this.headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfter)));
    }
  }

  /** The wire body of this error. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }

  /** The HTTP response for this error. */
  toResponse(): Response {
    return new Response(JSON.stringify(this.toBody()), {
      status: this.status,
      headers: { 'content-type': 'application/json', ...this.headers },
    });
  }
}

/** True for an {@link HttpError}, also across duplicate copies of this package. */
export function isHttpError(value: unknown): value is HttpError {
  if (value instanceof HttpError) return true;
  if (!(value instanceof Error) || value.name !== 'HttpError') return false;
  const { code, toResponse } = value as Error & { code?: unknown; toResponse?: unknown };
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) && typeof toResponse === 'function';
}

/** Wraps anything thrown into an {@link HttpError}: HttpErrors as they are, the rest as `internal_error`. */
export function toHttpError(error: unknown): HttpError {
  if (isHttpError(error)) return error;
  return new HttpError('internal_error', 'An unexpected server failure', { cause: error });
}
