import { MAX_REPORT_ATTEMPTS } from '../../defaults.js';
import type { ToolRequestOptions } from './tool-transport.js';

export interface ReportRetryOptions {
  signal?: AbortSignal | undefined;
  /** Total attempts, the first included. Default {@link MAX_REPORT_ATTEMPTS}. */
  maxAttempts?: number | undefined;
}

/**
 * Sends a terminal report through the client with a retry budget of its own: the client retries
 * it (a tool response and a failure are safe to repeat) on connection failures, timeouts, 408, 429
 * and 5xx with its backoff, the server's `Retry-After` winning, for up to `maxAttempts` attempts.
 * Repeating is safe: the server answers an identical repeat of a response or failure with 200 and
 * changes nothing. Other 4xx (409, 404, ...) are thrown at once.
 */
export function reportWithRetry(
  send: (options: ToolRequestOptions) => Promise<void>,
  options: ReportRetryOptions = {},
): Promise<void> {
  const maxRetries = Math.max(1, options.maxAttempts ?? MAX_REPORT_ATTEMPTS) - 1;
  return send(options.signal ? { signal: options.signal, maxRetries } : { maxRetries });
}
