import type { Clock } from './clock.js';
import { setLongTimeout } from './long-timeout.js';

/** The real clock: `Date.now()` and `setTimeout` (chained past a timer's 24.8-day limit). */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        stopTimer();
        reject(signal?.reason);
      };
      const stopTimer = setLongTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
