import type { Clock } from '../../time/clock.js';
import { abortable } from '../../utils/abortable.js';

/** Raised (as the abort reason) when a provider call outlives its timeout. */
export class ProviderTimeoutError extends Error {
  override name = 'ProviderTimeoutError' as const;
  readonly timeoutMs: number;
  constructor(message: string, timeoutMs: number) {
    super(message);
    this.timeoutMs = timeoutMs;
  }
}

export function isProviderTimeoutError(error: unknown): error is ProviderTimeoutError {
  return error instanceof Error && error.name === 'ProviderTimeoutError';
}

/**
 * Runs `work` with a signal that aborts when `outer` aborts or when `timeoutMs` of `clock` time have
 * passed (reason: a {@link ProviderTimeoutError}). The work must honour the signal.
 */
export async function withTimeout<T>(
  clock: Clock,
  timeoutMs: number,
  describe: string,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timer = new AbortController();
  const stopTimer = new AbortController();
  clock.sleep(timeoutMs, stopTimer.signal).then(
    () =>
      timer.abort(new ProviderTimeoutError(`${describe} did not answer within ${timeoutMs} ms`, timeoutMs)),
    () => undefined,
  );
  const signal = outer === undefined ? timer.signal : AbortSignal.any([outer, timer.signal]);
  try {
    // Race the work against the signal too, in case the work does not honour it promptly.
    return await abortable(work(signal), signal);
  } finally {
    stopTimer.abort();
  }
}
