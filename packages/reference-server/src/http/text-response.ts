const encoder = new TextEncoder();

/**
 * A `Response` whose body is a text known up front: `text()`, `json()`, `arrayBuffer()`, `bytes()`,
 * `blob()` and `clone()` use the text as it is, and the body stream exists only once someone asks
 * for `body` (or `formData()`). An adapter that writes the text itself (the node adapter, through
 * {@link knownText}) never makes one.
 *
 * Hand-written: building a `Response` around a string makes a web `ReadableStream` at once, which
 * costs more than the rest of a small JSON request on Node 20.
 */
export class TextResponse extends Response {
  readonly #text: string;
  #used = false;
  #streamed: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The body text. */
  get knownText(): string {
    return this.#text;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#stream().body;
  }

  override get bodyUsed(): boolean {
    return this.#used || (this.#streamed?.bodyUsed ?? false);
  }

  override text(): Promise<string> {
    return this.#consume(() => this.#text);
  }

  override json(): Promise<unknown> {
    return this.#consume(() => JSON.parse(this.#text) as unknown);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#consume(() => encoder.encode(this.#text).buffer as ArrayBuffer);
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#consume(() => encoder.encode(this.#text) as Uint8Array<ArrayBuffer>);
  }

  override blob(): Promise<Blob> {
    const type = this.headers.get('content-type') ?? '';
    return this.#consume(() => new Blob([this.#text], { type }));
  }

  override formData(): Promise<FormData> {
    return this.#stream().formData();
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: the body has already been used');
    return new TextResponse(this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: new Headers(this.headers),
    });
  }

  /** A body read once, like any response's: a second read rejects. */
  #consume<T>(read: () => T): Promise<T> {
    if (this.bodyUsed) return Promise.reject(new TypeError('Body is unusable: it has already been read'));
    if (this.#streamed !== undefined) return this.#streamed.text().then(read);
    this.#used = true;
    try {
      return Promise.resolve(read());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The same response with a real body stream, made once. */
  #stream(): Response {
    this.#streamed ??= new Response(this.#used ? '' : this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
    return this.#streamed;
  }
}

/** The body text of a {@link TextResponse}, if `response` is one whose body is still unread. */
export function knownText(response: Response): string | undefined {
  return response instanceof TextResponse && !response.bodyUsed ? response.knownText : undefined;
}
