/** One request the proxy sends upstream. */
export interface UpstreamCall {
  /** The upstream's base URL without a trailing slash (a path prefix is kept). */
  readonly base: string;
  /** Path and query as the client sent them. */
  readonly path: string;
  readonly method: string;
  /** Header fields to send (lower-case names); the transport adds `content-length` for a body. */
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | undefined;
}

/** The upstream's answer: its status and header fields first, then its body, whole or as a stream. */
export interface UpstreamAnswer {
  readonly status: number;
  /** Header fields with lower-case names; repeated fields joined with `, `. */
  readonly headers: Record<string, string>;
  /**
   * The whole body, or undefined once it is longer than `maxBytes` (said by its `content-length`
   * or found while reading): its bytes, those read so far first, then come from {@link stream}.
   * Rejects when the connection breaks before its end.
   */
  bytes(maxBytes: number): Promise<Uint8Array | undefined>;
  /** The body as it comes (call once); null when the answer has none. */
  stream(): ReadableStream<Uint8Array> | null;
}

/** A call on its way: its answer, and a way to end it early (the client left, the timeout). */
export interface UpstreamExchange {
  /** Rejects with the abort's reason once aborted, or with the connection's failure. */
  readonly answer: Promise<UpstreamAnswer>;
  /** Ends the call; the answer (or its body) fails with `reason`. */
  abort(reason: Error): void;
}

/** How the proxy calls its upstream: node:http(s) on Node, a `fetch` elsewhere or when given one. */
export type UpstreamTransport = (call: UpstreamCall) => UpstreamExchange;

/** A transport and a way to end its open connections (the proxy's `close()`). */
export interface UpstreamClient {
  readonly send: UpstreamTransport;
  /** Closes the connections kept alive for later calls; calls on their way end too. */
  close(): void;
}
