import { MAX_RETRY_AFTER_MS } from '../defaults.js';

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
