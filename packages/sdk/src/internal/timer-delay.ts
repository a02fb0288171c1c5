/** The longest delay `setTimeout` keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A time limit a timer can keep: a number of ms above 0 and at most {@link MAX_TIMER_MS}. */
export function isTimerDelay(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS;
}
