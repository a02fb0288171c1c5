import type { Clock } from './clock.js';

interface Sleeper {
  wakeAt: number;
  seq: number;
  resolve: () => void;
}

/**
 * A clock that moves only when told to. Tests inject it to reach a heartbeat timeout or a deadline
 * without sleeping.
 *
 * @example
 * const clock = new ManualClock(1_000);
 * const server = createReferenceServer({ clock });
 * await clock.advance(15_000); // every lease is now stale
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  /** @param start Initial time, Unix ms (default 0). */
  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Resolves once {@link advance} moved the clock `ms` forward; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        wakeAt: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /**
   * Moves time forward by `ms`, waking due sleepers in order of their wake time (then of their
   * creation). The clock reads each sleeper's wake time while it wakes; code that sleeps again
   * during the advance is woken too if its new time is due. Resolves once the woken code ran.
   */
  async advance(ms: number): Promise<void> {
    const target = this.#now + Math.max(0, ms);
    for (;;) {
      const due = this.#sleepers
        .filter((s) => s.wakeAt <= target)
        .sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.#sleepers = this.#sleepers.filter((s) => s !== due);
      this.#now = Math.max(this.#now, due.wakeAt);
      due.resolve();
      // Let the woken code run (and maybe sleep again) before looking for the next due sleeper.
      await flushMicrotasks();
    }
    this.#now = target;
  }

  /** Sets the time; only forward moves wake sleepers. */
  async set(time: number): Promise<void> {
    if (time > this.#now) await this.advance(time - this.#now);
    else this.#now = time;
  }

  /** Number of sleeps waiting for the clock. */
  get pendingSleeps(): number {
    return this.#sleepers.length;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
