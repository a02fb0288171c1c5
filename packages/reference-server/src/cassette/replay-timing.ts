/** How a replay times a streamed turn's events: the recorded gaps (divided by `speed`), or none. */
export interface ReplayTiming {
  pace: 'recorded' | 'fast';
  speed: number;
}

/**
 * The timing of the replay options `pace` and `speed`: `speed` (a number > 0) implies the recorded
 * pace; with `pace: 'fast'` it is a `TypeError`, as is a speed of 0, a negative or a non-number.
 */
export function replayTiming(options: { pace?: 'recorded' | 'fast'; speed?: number }): ReplayTiming {
  const { pace, speed } = options;
  if (speed === undefined) return { pace: pace ?? 'fast', speed: 1 };
  if (pace === 'fast' || !(typeof speed === 'number' && speed > 0 && speed < Number.POSITIVE_INFINITY)) {
    const why =
      pace === 'fast'
        ? "plays the recorded cadence faster, so it needs pace 'recorded' (or no pace)"
        : 'must be a number > 0';
    throw new TypeError(`replay.speed: ${why}, got ${JSON.stringify(speed) ?? String(speed)}`);
  }
  return { pace: 'recorded', speed };
}
