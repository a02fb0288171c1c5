/**
 * Where the reference server gets its time. Inject a {@link ManualClock} in tests to move time
 * instead of sleeping.
 */
export interface Clock {
  /** Current time, Unix ms. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
