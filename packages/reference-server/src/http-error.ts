import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@parley/protocol';
import type { ErrorDetailsByCode, ToolCallLeasedDetails } from '@parley/protocol/wire';

/**
 * Error codes the reference server answers outside the protocol's table: refusals of its network
 * guard and of its control routes (`/_parley/`), and the 409 of its tool-call lease extension
 * (docs/protocol.md, answered only to a request that carries a `parley-lease` token). No plain
 * `/v1` operation answers them, so they are not in `ERROR_CODES` nor in the OpenAPI document;
 * docs/reference-server.md explains them.
 */
export const SERVER_ERROR_CODES = {
  control_token_required: {
    status: 401,
    description: 'A control route was called without the x-parley-control-token header.',
  },
  invalid_control_token: { status: 401, description: 'The x-parley-control-token header is not the token.' },
  host_not_allowed: {
    status: 403,
    description: 'The Host is not a loopback name, an IP address or one of the allowed hosts.',
  },
  unsupported_media_type: {
    status: 415,
    description: 'A control route takes JSON only: content-type must be application/json.',
  },
  invalid_test_id: {
    status: 400,
    description:
      'The x-parley-test-id header is empty, longer than 512 characters or holds a control character.',
  },
  session_limit_reached: {
    status: 503,
    description: 'The server holds as many sessions as its maxSessions (--max-sessions) allows.',
  },
  test_scope_expired: {
    status: 410,
    description:
      'The x-parley-test-id names a test scope the server removed after testScopes.idleMs without a request.',
  },
  test_scope_limit_reached: {
    status: 503,
    description: 'A new test scope while the server holds testScopes.max scopes, each in use.',
  },
  tool_call_leased: {
    status: 409,
    description:
      'Lease extension: another worker holds a live lease on the tool call (its parley-lease token is not this one); details name the lease.',
  },
  not_ready: {
    status: 503,
    description: 'GET /readyz: the cassette is not loaded yet, or the upstream has not answered.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

/** A code of the protocol's `ERROR_CODES` or of {@link SERVER_ERROR_CODES}. */
export type ServerErrorCode = ErrorCode | keyof typeof SERVER_ERROR_CODES;

function statusOfCode(code: ServerErrorCode): number {
  return Object.hasOwn(SERVER_ERROR_CODES, code)
    ? SERVER_ERROR_CODES[code as keyof typeof SERVER_ERROR_CODES].status
    : ERROR_CODES[code as ErrorCode].status;
}

/** The `details` of the codes of {@link SERVER_ERROR_CODES} that carry any. */
export type ServerErrorDetailsByCode = {
  tool_call_leased: ToolCallLeasedDetails;
  session_limit_reached: {
    /** The server's `maxSessions` (`--max-sessions`). */
    maxSessions: number;
  };
  invalid_test_id: {
    /** The header refused: `x-parley-test-id`. */
    header: string;
  };
  test_scope_expired: {
    /** The test id (the header's value). */
    testId: string;
    /** The server's `testScopes.idleMs`. */
    idleMs: number;
  };
  test_scope_limit_reached: {
    /** The server's `testScopes.max`. */
    maxTestScopes: number;
  };
};

/**
 * The `details` an {@link HttpError} of code `C` may carry: the protocol's `ErrorDetailsByCode`
 * (or {@link ServerErrorDetailsByCode}) for `C`, and `never` (no details) for a code neither lists.
 */
export type HttpErrorDetailsOf<C extends ServerErrorCode> = C extends keyof ErrorDetailsByCode
  ? ErrorDetailsByCode[C]
  : C extends keyof ServerErrorDetailsByCode
    ? ServerErrorDetailsByCode[C]
    : never;

/** Options of an {@link HttpError} of code `C`. */
export interface HttpErrorOptions<C extends ServerErrorCode = ServerErrorCode> {
  /**
   * Machine-readable details, rendered as `error.details`: the shape the error-details table gives
   * `C` (a code it does not list takes none). `retryAfterSeconds` also sets `Retry-After`.
   */
  details?: HttpErrorDetailsOf<C>;
  /** Extra response headers. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A protocol error that renders itself: `{ "error": { "code", "message", "details"? } }` with the
 * status the `ERROR_CODES` table (or {@link SERVER_ERROR_CODES}) gives its code.
 *
 * @example
 * throw new HttpError('session_not_found', `Session ${id} was not found`);
 */
export class HttpError<C extends ServerErrorCode = ServerErrorCode> extends Error {
  override name = 'HttpError' as const;
  readonly code: C;
  readonly status: number;
  readonly details: HttpErrorDetailsOf<C> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: C, message: string, options: HttpErrorOptions<NoInfer<C>> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = statusOfCode(code);
    this.details = options.details;
    this.headers = { ...options.headers };
    const details: Record<string, unknown> | undefined = options.details;
    const retryAfter = details?.retryAfterSeconds;
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
  return (
    typeof code === 'string' &&
    (Object.hasOwn(ERROR_CODES, code) || Object.hasOwn(SERVER_ERROR_CODES, code)) &&
    typeof toResponse === 'function'
  );
}

/** Wraps anything thrown into an {@link HttpError}: HttpErrors as they are, the rest as `internal_error`. */
export function toHttpError(error: unknown): HttpError {
  if (isHttpError(error)) return error;
  return new HttpError('internal_error', 'An unexpected server failure', { cause: error });
}
