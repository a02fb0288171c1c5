import { APIError } from '../errors/index.js';
import { check } from '../internal/shape.js';
import { ErrorBodyShape } from './response-shapes.js';

/**
 * Builds the {@link APIError} subclass for a non-2xx response (ky's `HTTPError.response`) from its
 * `{ error }` body, read as `text` within the attempt.
 */
export function apiErrorFrom(
  response: Response,
  text: string,
  method: string,
  url: string,
  hint = '',
): APIError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const fallback = text.trim().slice(0, 200) || response.statusText || undefined;
  const error =
    check(ErrorBodyShape, body).length === 0
      ? (body as { error: { code: string; message: string; details?: Record<string, unknown> } }).error
      : undefined;
  return APIError.generate({
    status: response.status,
    code: error?.code,
    serverMessage: error ? error.message : fallback,
    details: error?.details,
    headers: response.headers,
    method,
    url,
    hint,
  });
}
