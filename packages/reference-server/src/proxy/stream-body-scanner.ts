// Adapted from the SDK's event scanner (packages/sdk/src/streaming/stream-body-parser.ts): the
// server cannot import the SDK, nor the SDK the protocol package, so the two scanners are kept
// apart on purpose. This one bounds what it keeps per event and reports oversized ones; a fix to
// how either frames `{"sessionId": ..., "events": [...]}` belongs in both.
/** What the {@link StreamBodyScanner} reports. */
export interface StreamBodyHandlers {
  /** A top-level field other than `events` (e.g. `sessionId`), or `events` when it is not an array. */
  field(key: string, value: unknown): void;
  /** Element `index` of `events`, parsed. */
  event(value: unknown, index: number): void;
  /** Element `index` of `events` was longer than the scanner keeps: skipped, not parsed. */
  oversized(index: number, chars: number): void;
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

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * Incremental scanner of a streamed reply's body, `{"sessionId": ..., "events": [...]}`: chunks go
 * in as they arrive, split anywhere (even inside a UTF-8 sequence), and each event comes out parsed
 * as soon as its closing brace is read. It only finds where each value starts and ends and leaves
 * the parsing to `JSON.parse` (the same approach as the SDK's stream parser; @streamparser/json
 * builds every value token by token and costs several times more per event). Memory stays bounded:
 * an event longer than `maxValueChars` is skipped and reported, not kept.
 */
export class StreamBodyScanner {
  readonly #handlers: StreamBodyHandlers;
  readonly #maxValueChars: number;
  readonly #decoder = new TextDecoder();
  #at = At.DocumentStart;
  #key = '';
  #index = 0;
  /** The text of the value being read, in pieces, when it spans chunks. */
  #parts: string[] = [];
  #partsChars = 0;
  #skipping = false;
  #capturing = false;
  /** The value being read: its kind (`{`, `[`, `"`, or 0 for a number or literal) and open brackets. */
  #kind = 0;
  #open: number[] = [];
  #inString = false;
  #escaped = false;
  #offset = 0;

  constructor(handlers: StreamBodyHandlers, maxValueChars: number) {
    this.#handlers = handlers;
    this.#maxValueChars = maxValueChars;
  }

  /** True once the top-level object has closed. */
  get complete(): boolean {
    return this.#at === At.Done;
  }

  /** Elements of `events` begun so far (the index of the one being read, if any). */
  get eventsBegun(): number {
    return this.#index + (this.#capturing && this.#inEvents ? 1 : 0);
  }

  /** Whether the scanner is inside an element of `events` (a cut there cuts an event). */
  get insideEvent(): boolean {
    return this.#capturing && this.#inEvents;
  }

  get #inEvents(): boolean {
    return this.#at === At.FirstElement || this.#at === At.NextElement;
  }

  /** Feeds one chunk. Throws a SyntaxError naming the position when the bytes are not this JSON. */
  write(chunk: Uint8Array): void {
    if (this.#at === At.Done) return;
    this.#scan(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended: flushes the decoder. Whether the document was complete is {@link complete}. */
  end(): void {
    if (this.#at !== At.Done) this.#scan(this.#decoder.decode());
  }

  #scan(text: string): void {
    let i = 0;
    const length = text.length;
    while (i < length && this.#at !== At.Done) {
      if (this.#capturing) {
        i = this.#captureUntilEnd(text, i);
        continue;
      }
      const code = text.charCodeAt(i);
      if (isSpace(code)) {
        i++;
        continue;
      }
      switch (this.#at) {
        case At.DocumentStart:
          this.#expect(code === OPEN_BRACE, text, i);
          this.#at = At.FirstKey;
          i++;
          break;
        case At.FirstKey:
        case At.NextKey:
          if (code === CLOSE_BRACE && this.#at === At.FirstKey) {
            this.#at = At.Done;
            i++;
            break;
          }
          this.#expect(code === QUOTE, text, i);
          this.#at = At.Key;
          this.#startCapture(text, i);
          break;
        case At.Colon:
          this.#expect(code === COLON, text, i);
          this.#at = At.Value;
          i++;
          break;
        case At.Value:
          if (this.#key === 'events' && code === OPEN_BRACKET) {
            this.#at = At.FirstElement;
            i++;
          } else this.#startCapture(text, i);
          break;
        case At.AfterValue:
          this.#expect(code === COMMA || code === CLOSE_BRACE, text, i);
          this.#at = code === COMMA ? At.NextKey : At.Done;
          i++;
          break;
        case At.FirstElement:
        case At.NextElement:
          if (code === CLOSE_BRACKET && this.#at === At.FirstElement) {
            this.#at = At.AfterValue;
            i++;
          } else this.#startCapture(text, i);
          break;
        case At.AfterElement:
          this.#expect(code === COMMA || code === CLOSE_BRACKET, text, i);
          this.#at = code === COMMA ? At.NextElement : At.AfterValue;
          i++;
          break;
      }
    }
    this.#offset += length;
  }

  #startCapture(text: string, i: number): void {
    const code = text.charCodeAt(i);
    this.#expect(code !== COMMA && code !== CLOSE_BRACE && code !== CLOSE_BRACKET && code !== COLON, text, i);
    this.#capturing = true;
    this.#kind = code === OPEN_BRACE || code === OPEN_BRACKET || code === QUOTE ? code : 0;
    this.#parts = [];
    this.#partsChars = 0;
    this.#skipping = false;
    this.#open = [];
    this.#inString = false;
    this.#escaped = false;
  }

  /** Reads the value being captured from `start`; returns where scanning goes on. */
  #captureUntilEnd(text: string, start: number): number {
    const length = text.length;
    let i = start;
    let end = -1;
    if (this.#kind === 0) {
      // A number or a literal ends at the first delimiter, which is not part of it.
      while (i < length) {
        const code = text.charCodeAt(i);
        if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) {
          end = i;
          break;
        }
        i++;
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
    this.#keep(text, start, end < 0 ? length : end);
    if (end < 0) return length;
    this.#capturing = false;
    if (this.#skipping) this.#skipped();
    else this.#finishValue(this.#parts.length === 1 ? (this.#parts[0] as string) : this.#parts.join(''));
    this.#parts = [];
    return end;
  }

  /** Keeps a piece of the value, or only counts it once the value is longer than the limit. */
  #keep(text: string, start: number, end: number): void {
    this.#partsChars += end - start;
    if (this.#skipping) return;
    if (this.#partsChars > this.#maxValueChars) {
      this.#skipping = true;
      this.#parts = [];
      return;
    }
    this.#parts.push(text.slice(start, end));
  }

  #skipped(): void {
    if (this.#inEvents) {
      this.#handlers.oversized(this.#index++, this.#partsChars);
      this.#at = At.AfterElement;
    } else if (this.#at === At.Key) {
      this.#key = '';
      this.#at = At.Colon;
    } else this.#at = At.AfterValue;
  }

  #finishValue(json: string): void {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new SyntaxError(`${(error as Error).message} (at position ${this.#offset} of the stream body)`);
    }
    switch (this.#at) {
      case At.Key:
        this.#key = value as string;
        this.#at = At.Colon;
        return;
      case At.Value:
        this.#handlers.field(this.#key, value);
        this.#at = At.AfterValue;
        return;
      default:
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
