import { parseRetryAfter } from '../errors/index.js';

// Hand-written, not ky's retry: ky's stops at the response headers (no body-read timeouts) and cannot
// tell a POST that provably never left from one that did.

/** First backoff delay; doubled on each retry. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Longest backoff delay (before jitter). */
export const MAX_RETRY_DELAY_MS = 8_000;
/** Share of the delay that negative jitter may remove. */
const JITTER = 0.25;

/** Statuses worth another attempt for a request that is safe to repeat. 501 is final. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501);
}

/**
 * How long to wait before retry number `retry` (0 for the first retry): the server's
 * `retry-after-ms` / `Retry-After` when it sent one (capped at 60 s), otherwise exponential
 * backoff with negative jitter, so clients that failed together do not retry together.
 */
export function retryDelayMs(retry: number, headers?: Headers, random: () => number = Math.random): number {
  const fromServer = headers ? parseRetryAfter(headers) : undefined;
  if (fromServer !== undefined) return fromServer;
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return Math.round(base * (1 - JITTER * random()));
}

/**
 * Statuses that prove the server refused a request before storing anything, so even a message POST
 * may be sent again: the service answers `429` (quota, rate limit) before it processes a send.
 */
export function rejectedUnprocessed(status: number): boolean {
  return status === 429;
}

const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * True when a fetch failure proves the request never reached a server (refused connection, DNS
 * failure), so even a non-idempotent POST can be sent again. Looks through the `cause` chain, where
 * undici and other runtimes put the system error code.
 */
export function provablyNotSent(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_SENT_CODES.has(code)) return true;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => provablyNotSent(e))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
