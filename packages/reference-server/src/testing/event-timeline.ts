/** Event times one journal entry keeps; past them the last slot always holds the newest event. */
export const MAX_EVENT_TIMES = 1000;

/** When one event of a streamed reply was written: ms after the request arrived, and its kind. */
export interface EventTime {
  /** Server-clock milliseconds from the request's arrival to this event being written. */
  atMs: number;
  /** The event's kind (its one key, e.g. `contentBlockDelta`); `(text)` for raw text in its place. */
  kind: string;
}

/**
 * The offsets at which a streamed reply's events were written, so a test or a person can see where
 * a stream slowed or stopped. Two flat arrays (numbers and shared kind strings), no object per
 * event; at most {@link MAX_EVENT_TIMES}, the newest event kept in the last slot.
 */
export class EventTimeline {
  readonly #atMs: number[] = [];
  readonly #kinds: string[] = [];
  #count = 0;

  add(kind: string, atMs: number): void {
    this.#count++;
    if (this.#atMs.length < MAX_EVENT_TIMES) {
      this.#atMs.push(atMs);
      this.#kinds.push(kind);
    } else {
      this.#atMs[MAX_EVENT_TIMES - 1] = atMs;
      this.#kinds[MAX_EVENT_TIMES - 1] = kind;
    }
  }

  /** True when events between the kept ones and the newest were left out. */
  get truncated(): boolean {
    return this.#count > this.#atMs.length;
  }

  /** The kept times, oldest first, as fresh objects. */
  times(): EventTime[] {
    return this.#atMs.map((atMs, i) => ({ atMs, kind: this.#kinds[i] ?? '' }));
  }
}
