import { STREAM_LOW_WATER_MARK } from '../defaults.js';
import type { StreamEventItem } from './stream-events.js';

/**
 * The buffer between the reader loop and one `for await` loop. Taking an event is O(1) (a moving
 * head, compacted now and then), so a loop that falls behind costs no more per event.
 */
export class EventQueue<T = StreamEventItem> implements AsyncIterator<T> {
  #items: T[] = [];
  #head = 0;
  readonly #onReturn: () => void;
  readonly #onDrain: () => void;
  #waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  #finished = false;
  #failure: Error | undefined;

  /**
   * @param onReturn the loop ended early (`break`, `return`).
   * @param onDrain the queue fell to {@link STREAM_LOW_WATER_MARK}: the reader may resume.
   */
  constructor(onReturn: () => void, onDrain: () => void) {
    this.#onReturn = onReturn;
    this.#onDrain = onDrain;
  }

  /** Events waiting to be taken. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#waiting) {
      this.#waiting.resolve({ value: item, done: false });
      this.#waiting = undefined;
    } else this.#items.push(item);
  }

  finish(failure: Error | undefined): void {
    this.#finished = true;
    this.#failure = failure;
    if (this.#waiting) {
      if (failure) this.#waiting.reject(failure);
      else this.#waiting.resolve({ value: undefined, done: true });
      this.#waiting = undefined;
      this.#failure = undefined;
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#items.length) {
      const item = this.#items[this.#head] as T;
      this.#items[this.#head++] = undefined as unknown as T;
      if (this.#head === this.#items.length) {
        this.#items = [];
        this.#head = 0;
      } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      if (this.size === STREAM_LOW_WATER_MARK) this.#onDrain();
      return Promise.resolve({ value: item, done: false });
    }
    if (this.#finished) {
      const failure = this.#failure;
      // Report the failure once; later calls just end.
      this.#failure = undefined;
      return failure ? Promise.reject(failure) : Promise.resolve({ value: undefined, done: true });
    }
    // Empty: whatever the reader was waiting for has certainly drained.
    this.#onDrain();
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.#finished = true;
    this.#items = [];
    this.#head = 0;
    this.#onReturn();
    return Promise.resolve({ value: undefined, done: true });
  }
}
