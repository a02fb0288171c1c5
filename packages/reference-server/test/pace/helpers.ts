import type { ManualClock, ModelEvent } from '@parley/reference-server';

/** The kind of an event: its one key. */
export const kindOf = (event: object): string => Object.keys(event)[0] ?? '';

/**
 * Takes every event of `events`, moving `clock` one millisecond at a time whenever the model
 * waits on it, and returns each event with the clock's time when it came.
 */
export async function timed(
  clock: ManualClock,
  events: AsyncIterable<ModelEvent>,
): Promise<Array<{ at: number; kind: string; event: ModelEvent }>> {
  const out: Array<{ at: number; kind: string; event: ModelEvent }> = [];
  let finished = false;
  const taking = (async () => {
    try {
      for await (const event of events) out.push({ at: clock.now(), kind: kindOf(event), event });
    } finally {
      finished = true;
    }
  })();
  await driveUntil(clock, () => finished);
  await taking;
  return out;
}

/** Moves `clock` a millisecond at a time while something sleeps on it, until `done()`. */
export async function driveUntil(clock: ManualClock, done: () => boolean): Promise<void> {
  while (!done()) {
    if (clock.pendingSleeps > 0) await clock.advance(1);
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
