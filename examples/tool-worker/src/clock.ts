import { setTimeout as delay } from 'node:timers/promises';

/**
 * Where the worker gets its time: the tool's pretend work and the pause between recovery rounds
 * sleep on it, and the recovery loop reads the time from it to stop at the call's deadline. The
 * reference server's `ManualClock` has this shape, so a test can give the worker and the server
 * one clock and move it by hand.
 */
export interface WorkerClock {
  /** Current time, Unix ms (compared with a call's `deadlineAt`). */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Real time: `Date.now()` and `setTimeout`. */
export const systemClock: WorkerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, signal === undefined ? {} : { signal }),
};
