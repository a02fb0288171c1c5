import { APIUserAbortError } from '../errors/index.js';

/**
 * Waits `ms` on `setTimeout` (so fake timers drive it), rejecting with {@link APIUserAbortError}
 * as soon as `signal` aborts.
 */
// Hand-written: ky's backoff sleep is internal and node:timers/promises is not in browsers.
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new APIUserAbortError(undefined, { cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError(undefined, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
