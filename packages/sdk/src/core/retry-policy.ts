// The SDK's retry policy as plain rules. ky runs it: `Exchange` hands these rules to ky's `retry`
// option (`shouldRetry` decides, `delay` returns the wait), and ky counts, waits and re-sends.

import { INITIAL_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS, RETRY_JITTER } from '../defaults.js';

/** Statuses worth another attempt for a request that is safe to repeat. 501 is final. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501);
}

/**
 * Statuses that prove the server refused a request before storing anything, so even a message POST
 * may be sent again: the service answers `429` (quota, rate limit) before it processes a send.
 */
export function rejectedUnprocessed(status: number): boolean {
  return status === 429;
}

/**
 * The wait before retry number `retry` (1 for the first) when the server named none:
 * `min(500 ms * 2^(retry-1), 8 s)`, shortened by up to a quarter of random (negative) jitter, so
 * clients that failed together do not retry together.
 */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** (retry - 1), MAX_RETRY_DELAY_MS);
  return Math.round(base * (1 - RETRY_JITTER * random()));
}
