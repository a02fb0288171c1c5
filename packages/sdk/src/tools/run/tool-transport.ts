import type { TracerOption } from '../../tracing/tracer-like.js';
import type { HeartbeatLease } from '../../wire/index.js';

/** The per-request options the tool helpers pass down (a subset of the client's `RequestOptions`). */
export interface ToolRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** Extra headers: the lease extension's `parley-lease` token. */
  headers?: Record<string, string>;
}

/**
 * The three tool endpoints the helpers need. `client.tools` of a `Parley` client satisfies it; tests
 * pass fakes.
 */
export interface ToolTransport {
  /**
   * `POST .../heartbeat` with `state: "PROCESSING"`. Resolves with the lease when the beat carried a
   * lease token and the server offers the lease extension; with nothing otherwise.
   */
  heartbeat(
    sessionId: string,
    requestId: string,
    options?: ToolRequestOptions,
  ): Promise<HeartbeatLease | undefined> | Promise<void>;
  /** `POST /v1/tools/response/...` with `{ state: "COMPLETE", ...output }`. */
  respond(
    sessionId: string,
    requestId: string,
    output: Record<string, unknown>,
    options?: ToolRequestOptions,
  ): Promise<void>;
  /** `POST .../heartbeat` with `state: "ERROR"`. */
  fail(sessionId: string, requestId: string, message: string, options?: ToolRequestOptions): Promise<void>;
}

/** Anything with a `tools` resource: a `Parley` client, or a fake in tests. */
export interface ToolClient {
  tools: ToolTransport;
  /** Where the spans of tool runs go (a `Parley` client's `tracer` option). */
  tracer?: TracerOption | undefined;
}
