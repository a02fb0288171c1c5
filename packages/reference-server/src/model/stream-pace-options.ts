/**
 * How fast a reply streams, as a real model's would: a wait before the first event, then a rate
 * of words. Every wait is on the server's clock, so a `ManualClock` test moves it without sleeping.
 */
export interface StreamPace {
  /** Milliseconds from the model call to its first event (time to first token). Default 0. */
  ttftMs?: number;
  /**
   * Words (the stand-in's tokens) per second after the first event: each word of a text delta and
   * each fragment of a tool's input takes `1000 / wordsPerSecond` ms. Default: no wait.
   */
  wordsPerSecond?: number;
  /**
   * From 0 to 1: each wait is scaled by a factor drawn from `[1 - jitter, 1 + jitter]`. Default 0.
   * The draws are seeded: the same seed gives the same timings.
   */
  jitter?: number;
  /** The jitter's seed, an integer. Default 0. */
  seed?: number;
}

const RANGES: Readonly<Record<string, string>> = {
  ttftMs: 'a number >= 0',
  wordsPerSecond: 'a number >= 0',
  jitter: 'a number from 0 to 1',
  seed: 'an integer',
};

/**
 * Checks a pace given in code: a `TypeError` naming `where` and the field for an unknown key, a
 * negative or non-numeric figure, a jitter above 1 or a seed that is not an integer.
 */
export function checkStreamPace(pace: StreamPace, where: string): StreamPace {
  for (const [key, value] of Object.entries(pace)) {
    const range = RANGES[key];
    if (range === undefined) {
      throw new TypeError(`${where}.${key}: unknown option (expected ${Object.keys(RANGES).join(', ')})`);
    }
    const ok =
      value === undefined ||
      (key === 'seed'
        ? Number.isSafeInteger(value)
        : typeof value === 'number' && value >= 0 && value <= (key === 'jitter' ? 1 : Number.MAX_VALUE));
    if (!ok)
      throw new TypeError(`${where}.${key}: must be ${range}, got ${JSON.stringify(value) ?? String(value)}`);
  }
  return pace;
}
