import { JSONParser } from '@streamparser/json';

/** What the byte parser reports. */
export interface StreamBodyHandlers {
  /** The body's `sessionId`. */
  sessionId(id: string): void;
  /** One element of `events`, exactly as parsed (not yet validated). */
  event(raw: unknown): void;
}

/**
 * Incremental parser of the streamed reply body `{"sessionId": ..., "events": [...]}`: bytes go
 * in as they arrive, in chunks split anywhere (even inside a UTF-8 sequence); each event comes out
 * as soon as its closing brace is read. Emitted events are dropped from the parser's stack, so
 * memory stays bounded by the largest single event.
 */
export class StreamBodyParser {
  readonly #parser: JSONParser;
  #complete = false;
  #error: Error | undefined;

  constructor(handlers: StreamBodyHandlers) {
    this.#parser = new JSONParser({ paths: ['$.sessionId', '$.events.*'], keepStack: false });
    this.#parser.onValue = ({ value, key, stack }) => {
      if (typeof key === 'number') handlers.event(value);
      else if (key === 'sessionId' && stack.length === 1 && typeof value === 'string')
        handlers.sessionId(value);
    };
    this.#parser.onError = (error) => {
      this.#error ??= error;
    };
    this.#parser.onEnd = () => {
      this.#complete = true;
    };
  }

  /** True once the top-level object has closed (`]}` was read). */
  get complete(): boolean {
    return this.#complete;
  }

  /** Feeds one chunk. Throws the parser's error when the bytes are not valid JSON. */
  write(chunk: Uint8Array | string): void {
    // Bytes after the closing brace (a trailing newline) are not part of the document.
    if (this.#complete) return;
    this.#parser.write(chunk);
    this.#throwIfFailed();
  }

  /** Signals the end of the body. Throws when the document was left unfinished. */
  end(): void {
    if (this.#complete) return;
    this.#parser.end();
    this.#throwIfFailed();
    if (!this.#complete) throw new Error('The body ended before the JSON document was complete');
  }

  #throwIfFailed(): void {
    if (this.#error) throw this.#error;
  }
}
