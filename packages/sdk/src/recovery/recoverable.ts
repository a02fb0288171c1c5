import { isAPIError, isParleyError } from '../errors/index.js';
import { ERROR_CODES } from '../wire/index.js';

// Checked by name (as the guards do), with the two guards the first chunk already carries: a
// guard used only here would move from the recovery chunk into every app's first download.
function named(error: unknown, ...names: string[]): error is Error & { code?: string } {
  return isParleyError(error) && names.includes(error.name);
}

/** A status a later attempt may not meet: a server failure, but not `501` (final, e.g. `no_script_match`). */
function transient(status: number): boolean {
  return status >= 500 && status !== 501;
}

/** The caller's abort (`signal`, `stream.abort()`): never recovered. */
export function isUserAbort(error: unknown): boolean {
  return named(error, 'APIUserAbortError');
}

/**
 * Whether a reply's failure is one `recover` takes over: after the request was sent, a model
 * error or other 5xx (an exception event in a stream), a stream cut, dropped, malformed or timed
 * out, a body that is not the protocol's. Never a 4xx, a `501`, or an abort. During recovery
 * (`recovering`) a `409` says the conversation is still moving (`reply_in_progress`, or a reply
 * that ended in between): look again.
 */
export function isRecoverable(error: unknown, recovering: boolean): boolean {
  if (named(error, 'StreamError')) {
    if (error.code === undefined) return true;
    const entry = (ERROR_CODES as Record<string, { status: number }>)[error.code];
    // A model's own code (not in the table) is a model failure.
    return entry === undefined || transient(entry.status);
  }
  if (isAPIError(error)) return transient(error.status) || (recovering && error.status === 409);
  return named(error, 'APIConnectionError', 'APITimeoutError', 'ResponseValidationError');
}

/** Whether the server answered the request that failed: a status, or a stream's headers. */
export function answered(error: unknown): boolean {
  return isAPIError(error) || named(error, 'StreamError', 'ResponseValidationError');
}
