import { createInterface, type Interface } from 'node:readline';

/**
 * The lines of an input, one `read()` at a time, for two readers taking turns: the chat (the
 * user's requests) and the approval question. A read can be given up (its `signal` aborts, e.g.
 * at a call's deadline) without swallowing the line typed next, which an async iterator of
 * readline's would do.
 */
export class LineReader {
  readonly #lines: Interface;
  readonly #queued: string[] = [];
  readonly #waiting = new Set<(line: string | undefined) => void>();
  #closed = false;

  constructor(input: NodeJS.ReadableStream) {
    this.#lines = createInterface({ input, terminal: false });
    this.#lines.on('line', (line) => {
      const [waiter] = this.#waiting;
      if (waiter) {
        this.#waiting.delete(waiter);
        waiter(line);
      } else {
        this.#queued.push(line);
      }
    });
    this.#lines.on('close', () => {
      this.#closed = true;
      for (const waiter of this.#waiting) waiter(undefined);
      this.#waiting.clear();
    });
  }

  /** The next line, or `undefined` once the input has ended. Rejects with the reason when `signal` aborts. */
  read(signal?: AbortSignal): Promise<string | undefined> {
    const line = this.#queued.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#closed) return Promise.resolve(undefined);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter = (value: string | undefined) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onAbort = () => {
        this.#waiting.delete(waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.add(waiter);
    });
  }

  close(): void {
    this.#lines.close();
  }
}
