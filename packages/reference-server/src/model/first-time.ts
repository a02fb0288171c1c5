/**
 * Remembers keys it was asked about, to tell the first time from the next ones: the stand-in
 * model's `/fail-once` fails the first reply to a user message and not the replies after it. Keeps
 * the most recent `limit` keys (the oldest go first), so a long-lived server does not grow.
 */
export class FirstTime {
  readonly #seen = new Set<string>();

  constructor(private readonly limit = 10_000) {}

  /** True the first time `key` is asked about, false after (until it is forgotten). */
  check(key: string): boolean {
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    if (this.#seen.size > this.limit) {
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    return true;
  }
}
