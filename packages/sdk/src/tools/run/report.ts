import { isRetryableStatus, retryDelayMs } from '../../core/retry-policy.js';
import { APIUserAbortError, isAPIError, isAPIUserAbortError } from '../../errors/index.js';
import { sleep } from '../../internal/sleep.js';
import type { ToolRequestOptions } from './tool-transport.js';

/** Attempts of a terminal report (response or failure) before its error is thrown. */
export const MAX_REPORT_ATTEMPTS = 5;

export interface ReportRetryOptions {
  signal?: AbortSignal | undefined;
  /** Total attempts, the first included. Default {@link MAX_REPORT_ATTEMPTS}. */
  maxAttempts?: number | undefined;
  random?: (() => number) | undefined;
}

/**
 * Sends a terminal report, retrying connection failures, timeouts, 408, 429 and 5xx with
 * exponential backoff (the server's `Retry-After` wins). Repeating is safe: the server answers an
 * identical repeat of a response or failure with 200 and changes nothing. Other 4xx (409, 404, ...)
 * are thrown at once. The client's own retries are switched off (`maxRetries: 0`) so that the
 * attempts do not multiply.
 */
export async function reportWithRetry(
  send: (options: ToolRequestOptions) => Promise<void>,
  options: ReportRetryOptions = {},
): Promise<void> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? MAX_REPORT_ATTEMPTS);
  const { signal } = options;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new APIUserAbortError('Tool report aborted', { cause: signal.reason });
    try {
      await send(signal ? { signal, maxRetries: 0 } : { maxRetries: 0 });
      return;
    } catch (error) {
      if (attempt >= maxAttempts || !isRetryable(error, signal)) throw error;
      const headers = isAPIError(error) ? error.headers : undefined;
      await sleep(retryDelayMs(attempt - 1, headers, options.random), signal);
    }
  }
}

function isRetryable(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted || isAPIUserAbortError(error)) return false;
  // A non-2xx status is retried only when the status says so; anything else (connection error,
  // timeout, an unreadable 2xx body) may not have reached the server, and a repeat is harmless.
  return isAPIError(error) ? isRetryableStatus(error.status) : true;
}
