import type { TracerOption } from '../../tracing/tracer-like.js';

/** The per-request options the tool helpers pass down (a subset of the client's `RequestOptions`). */
export interface ToolRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * The three tool endpoints the helpers need. `client.tools` of a `Parley` client satisfies it; tests
 * pass fakes.
 */
export interface ToolTransport {
  /** `POST .../heartbeat` with `state: "PROCESSING"`. */
  heartbeat(sessionId: string, requestId: string, options?: ToolRequestOptions): Promise<void>;
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
