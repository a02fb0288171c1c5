import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  ResponseValidationError,
  StreamError,
} from '../errors/index.js';

/** A status a later attempt may not meet: a server failure, but not `501` (final, e.g. `no_script_match`). */
function transient(status: number): boolean {
  return status >= 500 && status !== 501;
}

/**
 * The codes of exception events that a later attempt would meet again (docs/protocol.md,
 * "Exception events"): a deleted session (404), a used-up quota (429), and the `501`s of a
 * scripted or replayed model. Any other code (`model_error`, a model's own, `internal_error`,
 * `injected_fault`) is a failure of this reply.
 */
const FINAL_STREAM_CODES = new Set([
  'session_not_found',
  'quota_exceeded',
  'no_script_match',
  'replay_mismatch',
]);

/** The caller's abort (`signal`, `stream.abort()`): never recovered. */
export function isUserAbort(error: unknown): boolean {
  return error instanceof APIUserAbortError;
}

/**
 * Whether a reply's failure is one `recover` takes over: after the request was sent, a model
 * error or other 5xx (an exception event in a stream), a stream cut, dropped, malformed or timed
 * out, a body that is not the protocol's. Never a 4xx, a `501`, or an abort. During recovery
 * (`recovering`) a `409` says the conversation is still moving (`reply_in_progress`, or a reply
 * that ended in between), and a `429` that the recovery's requests come too fast (they are not
 * retried by the client: the next attempt is their retry): look again.
 */
export function isRecoverable(error: unknown, recovering: boolean): boolean {
  if (error instanceof StreamError) return error.code === undefined || !FINAL_STREAM_CODES.has(error.code);
  if (error instanceof APIError) {
    return transient(error.status) || (recovering && (error.status === 409 || error.status === 429));
  }
  return error instanceof APIConnectionError || error instanceof ResponseValidationError;
}

/** Whether the server answered the request that failed: a status, or a stream's headers. */
export function answered(error: unknown): boolean {
  return (
    error instanceof APIError || error instanceof StreamError || error instanceof ResponseValidationError
  );
}

/** The wait a `429` asked for (`Retry-After`), in ms, if the failure is one that says. */
export function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof APIError) || error.status !== 429 || !('retryAfterMs' in error)) return undefined;
  return typeof error.retryAfterMs === 'number' ? error.retryAfterMs : undefined;
}
