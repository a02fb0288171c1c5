/**
 * Lets the event loop turn (no timers) until `predicate` holds; fails after `turns` turns. For
 * waiting on in-process message passing without sleeping.
 */
export async function until(predicate: () => boolean, turns = 1_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (predicate()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`Condition not met after ${turns} event-loop turns`);
}
