import {
  APIConnectionError,
  APIError,
  type APIErrorInit,
  APITimeoutError,
  APIUserAbortError,
  ParleyError,
  ResponseValidationError,
  StreamError,
} from '../errors/index.js';

/** The event kind `toReadableStream()` writes when the stream fails on its side. */
export const RELAYED_ERROR_KIND = 'parleyError';

/** The classes rebuilt by name; an `APIError` is rebuilt from its status, anything else is a `StreamError`. */
const CLASSES: Record<string, abstract new (...args: never[]) => ParleyError> = {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  ResponseValidationError,
  StreamError,
};

/**
 * An error as JSON: `name`, `message` and the fields of its class (`status`, `code`, `details`,
 * `requestId`, `eventCount`, ...), which are an SDK error's own enumerable properties; an
 * `APIError`'s response headers as a record. The `cause` stays behind.
 */
export function relayError(error: Error): Record<string, unknown> {
  const { headers } = error as { headers?: unknown };
  return {
    ...error,
    name: error.name,
    message: error.message,
    headers: headers instanceof Headers ? Object.fromEntries(headers) : undefined,
  };
}

/**
 * Rebuilds the error {@link relayError} wrote, as the same class with the same message and fields:
 * an `APIError` through `APIError.generate` (so `NotFoundError`, `RateLimitError`, ... with their
 * status, code, details, headers and request id), the other classes by name. An error that was
 * not the SDK's (a listener's `TypeError`) becomes a `StreamError` with its message.
 */
export function errorFromRelay(payload: unknown, eventCount: number): ParleyError {
  const fields: Record<string, unknown> = { eventCount, ...(typeof payload === 'object' ? payload : {}) };
  if (typeof fields.status === 'number') {
    return APIError.generate({
      ...(fields as unknown as APIErrorInit),
      headers: new Headers(fields.headers as Record<string, string> | undefined),
    });
  }
  const known = CLASSES[String(fields.name)];
  // The class's own constructor would compose another message: the base constructor runs with the
  // class as `new.target` (its prototype and brand), and the fields are set as they were written.
  const error: ParleyError = Reflect.construct(ParleyError, [String(fields.message)], known ?? StreamError);
  return Object.assign(error, fields, known ? {} : { name: 'StreamError' });
}
