import { HttpError } from '../http-error.js';
import { maskUrlPasswords } from '../utils/url-password.js';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * `502 upstream_unreachable` or `504 upstream_timeout`, naming the upstream (`base`, its password
 * masked) and the cause, with every secret and URL password in the cause's text masked too.
 */
export function upstreamError(
  base: string,
  timedOut: boolean,
  timeoutMs: number,
  error: unknown,
  redactor: SecretRedactor,
): HttpError {
  if (timedOut) {
    return new HttpError('upstream_timeout', `The upstream ${base} did not answer within ${timeoutMs} ms`, {
      details: { upstream: base, timeoutMs },
    });
  }
  const cause = maskUrlPasswords(redactor.text(causeOf(error)));
  return new HttpError('upstream_unreachable', `The upstream ${base} could not be reached: ${cause}`, {
    details: { upstream: base },
  });
}

/** `ECONNREFUSED`, or the error's own message. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
