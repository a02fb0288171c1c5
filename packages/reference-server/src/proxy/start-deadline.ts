import type { Clock } from '../time/clock.js';
import { setLongTimeout } from '../time/long-timeout.js';
import { systemClock } from '../time/system-clock.js';

/** The reason a sleep is stopped with: `abort()` without one makes a `DOMException` each time. */
const STOPPED = new Error('stopped');

/**
 * Calls `onTimeout` after `ms` of `clock`'s time unless the returned function is called first. On
 * the real clock a bare timer: a sleep with an `AbortController` per request was a visible share
 * of the proxy's CPU.
 */
export function startDeadline(clock: Clock, ms: number, onTimeout: () => void): () => void {
  if (clock === systemClock) return setLongTimeout(onTimeout, ms);
  const controller = new AbortController();
  clock.sleep(ms, controller.signal).then(onTimeout, () => {});
  return () => controller.abort(STOPPED);
}
