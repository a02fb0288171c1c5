import type { StreamEventItem } from './stream-events.js';

/** The buffer between the reader loop and one `for await` loop. */
export class EventQueue implements AsyncIterator<StreamEventItem> {
  readonly #items: StreamEventItem[] = [];
  readonly #onReturn: () => void;
  #waiting:
    | { resolve: (r: IteratorResult<StreamEventItem>) => void; reject: (e: unknown) => void }
    | undefined;
  #finished = false;
  #failure: Error | undefined;

  constructor(onReturn: () => void) {
    this.#onReturn = onReturn;
  }

  push(item: StreamEventItem): void {
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

  next(): Promise<IteratorResult<StreamEventItem>> {
    const item = this.#items.shift();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.#finished) {
      const failure = this.#failure;
      // Report the failure once; later calls just end.
      this.#failure = undefined;
      return failure ? Promise.reject(failure) : Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<StreamEventItem>> {
    this.#finished = true;
    this.#items.length = 0;
    this.#onReturn();
    return Promise.resolve({ value: undefined, done: true });
  }
}
