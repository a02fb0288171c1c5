/** The longest delay one `setTimeout` holds: a longer one fires after 1 ms (with a warning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `onTimeout` after `ms` milliseconds; the returned function cancels it. A delay past
 * {@link MAX_TIMER_MS} (about 24.8 days: a user's way to say "no timeout") runs as a chain of timers
 * that long in all, instead of firing at once as a bare `setTimeout` would.
 */
export function setLongTimeout(onTimeout: () => void, ms: number): () => void {
  let left = Math.max(0, ms);
  let timer: ReturnType<typeof setTimeout>;
  const arm = () => {
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    timer = setTimeout(left > 0 ? arm : onTimeout, step);
  };
  arm();
  return () => clearTimeout(timer);
}
