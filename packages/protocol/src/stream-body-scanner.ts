// The one scanner of a streamed reply's body, shared by the SDK (which reads the events as they
// arrive) and the reference server's proxy (which checks them as they pass). Dependency-free on
// purpose: the SDK's build inlines it, so installing the SDK installs neither this package nor zod.
// `@parley/protocol/stream-body-scanner` is its entry; the package's root does not import it.

/** What a {@link StreamBodyScanner} reports, in the order of the body. */
export interface StreamBodyHandlers {
  /** A top-level field other than the `events` array (`sessionId`; `events` itself when it is not an array), parsed. */
  field(key: string, value: unknown): void;
  /** Element `index` of `events`, parsed, as soon as its last character is read (not yet checked). */
  event(value: unknown, index: number): void;
  /** Element `index` of `events` was longer than `maxValueChars`: skipped, not parsed. */
  oversized?(index: number, chars: number): void;
}

export interface StreamBodyScannerOptions {
  /**
   * Longest value kept for parsing, in characters. An element of `events` past it is skipped and
   * reported to `oversized`; memory then stays bounded by this limit. Default: no limit (memory is
   * bounded by the largest event).
   */
  maxValueChars?: number;
}

// Where the scanner is in `{"sessionId": ..., "events": [...]}`.
enum At {
  DocumentStart,
  FirstKey,
  NextKey,
  Key,
  Colon,
  Value,
  AfterValue,
  FirstElement,
  NextElement,
  AfterElement,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * Incremental scanner of a streamed reply's body, `{"sessionId": ..., "events": [...]}`: chunks go
 * in as they arrive, split anywhere (even inside a UTF-8 sequence), and each event comes out parsed
 * as soon as its closing brace is read. It only finds where each value starts and ends, and leaves
 * the parsing to `JSON.parse`: @streamparser/json builds every value token by token, costs several
 * times more per event and is 23 KB minified. Bytes that are not this JSON throw a `SyntaxError`
 * naming the position in the body (of the unexpected character, or of the value that does not parse).
 *
 * @example
 * ```ts
 * const scanner = new StreamBodyScanner({
 *   field: (key, value) => console.log(key, value),
 *   event: (event, index) => console.log(index, event),
 * });
 * for await (const chunk of response.body!) scanner.write(chunk);
 * scanner.end();
 * if (!scanner.complete) throw new Error('the body ended early');
 * ```
 */
export class StreamBodyScanner {
  readonly #handlers: StreamBodyHandlers;
  readonly #maxValueChars: number;
  readonly #decoder = new TextDecoder();
  #at = At.DocumentStart;
  #key = '';
  #index = 0;
  /** Characters of the body before the chunk being scanned. */
  #offset = 0;
  /** Set while a value is read: where it starts in the body, and its text in pieces when it spans chunks. */
  #capturing = false;
  #start = 0;
  #parts: string[] = [];
  #chars = 0;
  /** The value's kind (`{`, `[`, `"`, or 0 for a number or literal), its open brackets, and string state. */
  #kind = 0;
  #open: number[] = [];
  #inString = false;
  #escaped = false;

  constructor(handlers: StreamBodyHandlers, options: StreamBodyScannerOptions = {}) {
    this.#handlers = handlers;
    this.#maxValueChars = options.maxValueChars ?? Number.POSITIVE_INFINITY;
  }

  /** True once the top-level object has closed. */
  get complete(): boolean {
    return this.#at === At.Done;
  }

  /**
   * The index of the element of `events` being read, while the scanner is inside one (a cut there
   * cuts an event); `undefined` between elements and outside the array.
   */
  get openEvent(): number | undefined {
    return this.#capturing && (this.#at === At.FirstElement || this.#at === At.NextElement)
      ? this.#index
      : undefined;
  }

  /** Feeds one chunk. Throws a `SyntaxError` naming the position when the text is not this JSON. */
  write(chunk: Uint8Array | string): void {
    // Bytes after the closing brace (a trailing newline) are not part of the document.
    if (this.#at === At.Done) return;
    this.#scan(typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended: flushes the decoder. Whether the document was whole is {@link complete}. */
  end(): void {
    if (this.#at !== At.Done) this.#scan(this.#decoder.decode());
  }

  #scan(text: string): void {
    let i = 0;
    const length = text.length;
    while (i < length && this.#at !== At.Done) {
      if (this.#capturing) {
        i = this.#capture(text, i);
        continue;
      }
      const code = text.charCodeAt(i);
      if (isSpace(code)) {
        i++;
        continue;
      }
      const at = this.#at;
      if (at === At.DocumentStart) {
        this.#expect(code === OPEN_BRACE, text, i++);
        this.#at = At.FirstKey;
      } else if (at === At.FirstKey && code === CLOSE_BRACE) {
        this.#at = At.Done;
        i++;
      } else if (at === At.FirstKey || at === At.NextKey) {
        this.#expect(code === QUOTE, text, i);
        this.#at = At.Key;
        this.#begin(text, i);
      } else if (at === At.Colon) {
        this.#expect(code === COLON, text, i++);
        this.#at = At.Value;
      } else if (at === At.Value && this.#key === 'events' && code === OPEN_BRACKET) {
        this.#at = At.FirstElement;
        i++;
      } else if (at === At.FirstElement && code === CLOSE_BRACKET) {
        this.#at = At.AfterValue;
        i++;
      } else if (at === At.Value || at === At.FirstElement || at === At.NextElement) {
        this.#begin(text, i);
      } else if (at === At.AfterValue) {
        this.#expect(code === COMMA || code === CLOSE_BRACE, text, i++);
        this.#at = code === COMMA ? At.NextKey : At.Done;
      } else {
        this.#expect(code === COMMA || code === CLOSE_BRACKET, text, i++);
        this.#at = code === COMMA ? At.NextElement : At.AfterValue;
      }
    }
    this.#offset += length;
  }

  #begin(text: string, i: number): void {
    const code = text.charCodeAt(i);
    this.#expect(code !== COMMA && code !== CLOSE_BRACE && code !== CLOSE_BRACKET && code !== COLON, text, i);
    this.#capturing = true;
    this.#start = this.#offset + i;
    this.#kind = code === OPEN_BRACE || code === OPEN_BRACKET || code === QUOTE ? code : 0;
    this.#parts = [];
    this.#chars = 0;
    this.#open = [];
    this.#inString = false;
    this.#escaped = false;
  }

  /** Reads the value being captured from `start`; returns where scanning goes on. */
  #capture(text: string, start: number): number {
    const length = text.length;
    let i = start;
    let end = -1;
    if (this.#kind === 0) {
      // A number or a literal ends at the first delimiter, which is not part of it.
      for (; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) {
          end = i;
          break;
        }
      }
    } else {
      let inString = this.#inString;
      let escaped = this.#escaped;
      const open = this.#open;
      for (; i < length; i++) {
        const code = text.charCodeAt(i);
        if (inString) {
          if (escaped) escaped = false;
          else if (code === BACKSLASH) escaped = true;
          else if (code === QUOTE) {
            inString = false;
            if (open.length === 0) {
              end = i + 1;
              break;
            }
          }
        } else if (code === QUOTE) inString = true;
        else if (code === OPEN_BRACE || code === OPEN_BRACKET) open.push(code);
        else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
          if (open.pop() !== code - 2) this.#fail(text, i);
          if (open.length === 0) {
            end = i + 1;
            break;
          }
        }
      }
      this.#inString = inString;
      this.#escaped = escaped;
    }
    const stop = end < 0 ? length : end;
    // Past the limit a value is only counted, no longer kept.
    this.#chars += stop - start;
    if (this.#chars <= this.#maxValueChars) this.#parts.push(text.slice(start, stop));
    else this.#parts = [];
    if (end < 0) return length;
    this.#capturing = false;
    const parts = this.#parts;
    this.#parts = [];
    if (this.#chars > this.#maxValueChars) this.#skipped();
    else this.#finish(parts.length === 1 ? (parts[0] as string) : parts.join(''));
    return end;
  }

  #skipped(): void {
    const at = this.#at;
    if (at === At.FirstElement || at === At.NextElement) {
      // Not `oversized?.(this.#index++)`: an optional call skips its arguments, and the index must move on.
      const index = this.#index++;
      this.#handlers.oversized?.(index, this.#chars);
      this.#at = At.AfterElement;
    } else if (at === At.Key) {
      this.#key = '';
      this.#at = At.Colon;
    } else this.#at = At.AfterValue;
  }

  #finish(json: string): void {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new SyntaxError(
        `${(error as Error).message} (in the value at position ${this.#start} of the stream body)`,
      );
    }
    const at = this.#at;
    if (at === At.Key) {
      this.#key = value as string;
      this.#at = At.Colon;
    } else if (at === At.Value) {
      this.#handlers.field(this.#key, value);
      this.#at = At.AfterValue;
    } else {
      this.#handlers.event(value, this.#index++);
      this.#at = At.AfterElement;
    }
  }

  #expect(ok: boolean, text: string, i: number): void {
    if (!ok) this.#fail(text, i);
  }

  #fail(text: string, i: number): never {
    throw new SyntaxError(
      `Unexpected ${JSON.stringify(text[i])} at position ${this.#offset + i} of the stream body`,
    );
  }
}
