/** What the byte parser reports. */
export interface StreamBodyHandlers {
  /** The body's `sessionId`. */
  sessionId(id: string): void;
  /** One element of `events`, exactly as parsed (not yet checked). */
  event(raw: unknown): void;
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
 * Incremental parser of the streamed reply body `{"sessionId": ..., "events": [...]}`: bytes go
 * in as they arrive, in chunks split anywhere (even inside a UTF-8 sequence); each event comes out
 * as soon as its closing brace is read. Memory stays bounded by the largest single event.
 */
// Hand-written, not @streamparser/json: that parser is 23 KB minified and spends ~10 µs per event;
// this one only finds where each event starts and ends and leaves the parsing to JSON.parse.
export class StreamBodyParser {
  readonly #handlers: StreamBodyHandlers;
  readonly #decoder = new TextDecoder();
  #at = At.DocumentStart;
  #key = '';
  /** The text of the value being read, in pieces, when it spans chunks. */
  #parts: string[] = [];
  /** The value being read: its kind (`{`, `[`, `"`, or 0 for a number or literal) and open brackets. */
  #capturing = false;
  #kind = 0;
  #open: number[] = [];
  #inString = false;
  #escaped = false;
  #offset = 0;

  constructor(handlers: StreamBodyHandlers) {
    this.#handlers = handlers;
  }

  /** True once the top-level object has closed (`]}` was read). */
  get complete(): boolean {
    return this.#at === At.Done;
  }

  /** Feeds one chunk. Throws when the bytes are not valid JSON. */
  write(chunk: Uint8Array | string): void {
    // Bytes after the closing brace (a trailing newline) are not part of the document.
    if (this.#at === At.Done) return;
    this.#scan(typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true }));
  }

  /** Signals the end of the body. Throws when the document was left unfinished. */
  end(): void {
    if (this.#at !== At.Done) this.#scan(this.#decoder.decode());
    if (this.#at !== At.Done) throw new Error('The body ended before the JSON document was complete');
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
    if (end < 0) {
      this.#parts.push(text.slice(start));
      return length;
    }
    this.#parts.push(text.slice(start, end));
    this.#capturing = false;
    this.#finishValue(this.#parts.length === 1 ? (this.#parts[0] as string) : this.#parts.join(''));
    this.#parts = [];
    return end;
  }

  #finishValue(json: string): void {
    const value: unknown = JSON.parse(json);
    switch (this.#at) {
      case At.Key:
        this.#key = value as string;
        this.#at = At.Colon;
        return;
      case At.Value:
        if (this.#key === 'sessionId' && typeof value === 'string') this.#handlers.sessionId(value);
        this.#at = At.AfterValue;
        return;
      default:
        this.#handlers.event(value);
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
