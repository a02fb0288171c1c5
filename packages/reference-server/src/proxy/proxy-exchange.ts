/**
 * One request that passed through the checking proxy and its answer, as the proxy saw them. The
 * proxy hands each finished exchange to its observers (the cassette recorder is one). Header names
 * are lower-case; `authorization` is never included.
 */
export interface ProxyExchange {
  /** Order of arrival at the proxy, from 0. */
  readonly seq: number;
  readonly method: string;
  /** Path and query as the client sent them, e.g. `/v1/messages/sess_1/stream`. */
  readonly path: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The request body parsed as JSON; undefined when there was none or it was not JSON. */
  readonly requestBody: unknown;
  /** Upstream status; 502/504 when the proxy answered itself because the upstream failed. */
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** A non-streamed response body parsed as JSON; undefined when empty or not JSON. */
  readonly responseBody: unknown;
  /**
   * A streamed reply (`POST /v1/messages/:sessionId/stream` answered 200): its events in order, each
   * with the milliseconds since the proxy forwarded the request. Undefined for other requests.
   */
  readonly events?: ReadonlyArray<{ readonly atMs: number; readonly event: Record<string, unknown> }>;
  /** How a streamed body ended: `complete` (the JSON closed), `cut` (upstream stopped mid-body), `aborted` (the client left). */
  readonly streamEnd?: 'complete' | 'cut' | 'aborted';
  /** Milliseconds from forwarding the request to the end of the response body. */
  readonly durationMs: number;
}

/** Told every exchange once its response body has ended (or failed); `close` when the server stops. */
export interface ProxyObserver {
  onExchange(exchange: ProxyExchange): void;
  close?(): void | Promise<void>;
}
