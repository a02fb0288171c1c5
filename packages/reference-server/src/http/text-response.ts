const encoder = new TextEncoder();

/** What {@link TextResponse} takes: a status and its header fields, lower-case names, valid values. */
export interface TextResponseInit {
  status: number;
  /** Taken over (not copied): the caller must not change it afterwards. */
  headers: Record<string, string>;
}

/**
 * A `Response` whose body is a text known up front: `text()`, `json()`, `arrayBuffer()`, `bytes()`,
 * `blob()` and `clone()` use the text as it is, and the body stream exists only once someone asks
 * for `body` (or `formData()`). Its header fields stay a plain record until someone reads
 * `headers`: the server's own layers add theirs with {@link setResponseHeader}, and an adapter that
 * writes the response itself (the node adapter, through {@link writableHead}) never makes a
 * `Headers` or a stream.
 *
 * Hand-written: building a `Response` around a string makes a web `ReadableStream` at once, and
 * each `Headers` call validates its name and value; together they cost more than the rest of a
 * small JSON request on Node 20.
 */
export class TextResponse extends Response {
  readonly #text: string;
  #used = false;
  #streamed: Response | undefined;
  /** The header fields until `headers` is first read; then the `Headers` object holds them. */
  #fields: Record<string, string> | undefined;

  constructor(text: string, init: TextResponseInit) {
    super(null, { status: init.status });
    this.#text = text;
    this.#fields = init.headers;
  }

  override get headers(): Headers {
    const headers = super.headers;
    const fields = this.#fields;
    if (fields !== undefined) {
      this.#fields = undefined;
      for (const name of Object.keys(fields)) headers.append(name, fields[name] as string);
    }
    return headers;
  }

  /** Sets a header field (`name` lower case); `append` adds to a list (`vary`). */
  setHeader(name: string, value: string, append = false): void {
    const fields = this.#fields;
    if (fields === undefined) {
      if (append) this.headers.append(name, value);
      else this.headers.set(name, value);
      return;
    }
    const current = fields[name];
    fields[name] = append && current !== undefined ? `${current}, ${value}` : value;
  }

  /** The header fields as a record (the response's own, not a copy), while `headers` was never read. */
  get fields(): Record<string, string> | undefined {
    return this.#fields;
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
    const headers: Record<string, string> = {};
    for (const [name, value] of this.headers) headers[name] = value;
    return new TextResponse(this.#text, { status: this.status, headers });
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

/**
 * What an adapter needs to write a {@link TextResponse} itself: its text (body still unread) and
 * its header fields (while still a record: no `Headers` made); undefined for any other response.
 * `fields` is the response's own record: an adapter adds what it writes besides (`content-length`)
 * to it rather than copying it (copying a record of this shape costs about a microsecond).
 */
export function writableHead(
  response: Response,
): { text: string; fields: Record<string, string> } | undefined {
  if (!(response instanceof TextResponse) || response.bodyUsed) return undefined;
  const fields = response.fields;
  return fields === undefined ? undefined : { text: response.knownText, fields };
}

/**
 * Sets a header on a response: on a {@link TextResponse}'s record while it is one, else on its
 * `headers` (a copy of the response when they are immutable, as on a `Response.redirect()` or a
 * response from `fetch`). Returns the response that carries the header.
 */
export function setResponseHeader(response: Response, name: string, value: string, append = false): Response {
  if (response instanceof TextResponse) {
    response.setHeader(name, value, append);
    return response;
  }
  try {
    if (append) response.headers.append(name, value);
    else response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    if (append) copy.headers.append(name, value);
    else copy.headers.set(name, value);
    return copy;
  }
}
