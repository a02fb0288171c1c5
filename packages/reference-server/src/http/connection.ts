// How an adapter that owns a real connection (node:http) lends it to the core for one request: to
// drop it (an injected fault), to read the body as bytes and to hear that the client left. Under
// msw or fetch injection there is none: the core errors the body (or rejects) instead of dropping,
// reads the body through the Request and listens to its signal.

/** What an adapter lends the core for one request. */
export interface Connection {
  /** Destroys the connection without finishing the response. */
  drop(): void;
  /**
   * The request's whole body, read off the connection (no web stream, no copy); undefined when it
   * cannot be read that way, so the core reads it through the Request.
   */
  readBody(): Promise<Uint8Array> | undefined;
  /**
   * Whether the request's framing says it has no body at all (HTTP/1.1: neither `Content-Length`
   * nor `Transfer-Encoding`), so the core answers without making the Request's body stream.
   */
  bodyless(): boolean;
  /** Calls `listener` once if the client leaves before the response is finished. */
  watchClient(listener: () => void): ClientWatch;
  /** The client's address (IP), where the connection knows it: tells one client from another. */
  readonly remoteAddress?: string | undefined;
}

/** A watch on the client of one request. */
export interface ClientWatch {
  /** Whether the client had left already when the watch began (`listener` is then never called). */
  readonly goneBefore: boolean;
  /** Stops watching. */
  stop(): void;
}

// A property of the request object rather than a WeakMap entry: setting it is cheap, and the
// garbage collector has no ephemeron to trace per request.
const CONNECTION = Symbol('parley.connection');

type WithConnection = Request & { [CONNECTION]?: Connection };

/** Lends `connection` to the core for `request`. */
export function attachConnection(request: Request, connection: Connection): void {
  (request as WithConnection)[CONNECTION] = connection;
}

/** The connection an adapter lent for `request`, if any. */
export function connectionOf(request: Request): Connection | undefined {
  return (request as WithConnection)[CONNECTION];
}

/** The function that destroys the connection of `request`, when its adapter lent one. */
export function connectionDropOf(request: Request): (() => void) | undefined {
  const connection = connectionOf(request);
  return connection === undefined ? undefined : () => connection.drop();
}

/**
 * Calls `listener` once if the client of `request` leaves before its response is finished: told by
 * the connection an adapter lent (no `AbortSignal` made for it), else by `request.signal`.
 */
export function watchClient(request: Request, listener: () => void): ClientWatch {
  const connection = connectionOf(request);
  if (connection !== undefined) return connection.watchClient(listener);
  const signal = request.signal;
  if (signal.aborted) return { goneBefore: true, stop: () => {} };
  signal.addEventListener('abort', listener, { once: true });
  return { goneBefore: false, stop: () => signal.removeEventListener('abort', listener) };
}
