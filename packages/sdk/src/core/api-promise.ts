/** A call's parsed data with the HTTP response it came from. */
export interface WithResponse<T> {
  data: T;
  /** The response: status, headers (its body has been read). */
  response: Response;
  /** The server's `x-request-id`: quote it when reporting a problem. */
  requestId: string | undefined;
}

/**
 * What every resource method returns: a `Promise` of the parsed data that also offers
 * {@link withResponse}. The request starts at once, whether or not the promise is awaited.
 *
 * @example
 * ```ts
 * const { data, response, requestId } = await client.sessions.create().withResponse();
 * console.log(response.status, requestId, data.sessionId);
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #inner: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(inner: Promise<WithResponse<T>>) {
    // The base promise is never used: `then` reads from `inner`, so an unobserved failure is
    // reported once (by `inner`'s consumer), not twice.
    super((resolve) => resolve(undefined as T));
    this.#inner = inner;
  }

  /** The data together with the response's status, headers and request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner;
  }

  /** A promise of `map(data)` that keeps this call's response. */
  map<U>(map: (data: T) => U): APIPromise<U> {
    return new APIPromise(this.#inner.then((result) => ({ ...result, data: map(result.data) })));
  }

  // biome-ignore lint/suspicious/noThenProperty: this is the promise's own `then`.
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#data ??= this.#inner.then((result) => result.data);
    return this.#data.then(onfulfilled, onrejected);
  }
}

// Derived promises (`.then`, `.catch`, `.finally`) are plain promises.
Object.defineProperty(APIPromise, Symbol.species, { value: Promise });
