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
