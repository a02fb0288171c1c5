import { CLASS_BRAND, ParleyError } from './parley-error.js';

/**
 * Why a tool call was lost while a worker held it: settled or abandoned on the server (409), gone
 * (404), no beat succeeded for longer than the lease (`TIMED_OUT`), or another worker holds its
 * lease (`LEASED`: the lease extension's `409 tool_call_leased`).
 */
export type ToolCallLostReason = 'ABANDONED' | 'NOT_FOUND' | 'TIMED_OUT' | 'LEASED';

/**
 * A tool call the worker can no longer settle: abandoned on the server (409), gone (404), no
 * heartbeat succeeded for longer than the server's timeout, or another worker holds its lease.
 */
export class ToolCallLostError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolCallLostError';
  override readonly name = 'ToolCallLostError' as const;
  readonly reason: ToolCallLostReason;
  readonly sessionId: string;
  readonly requestId: string;
  constructor(
    message: string,
    init: { reason: ToolCallLostReason; sessionId: string; requestId: string; cause?: unknown },
  ) {
    super(message, { cause: init.cause });
    this.reason = init.reason;
    this.sessionId = init.sessionId;
    this.requestId = init.requestId;
  }
}

/**
 * A tool ran but its report (response or failure) could not be delivered, even after retries. The
 * result is kept here: send it again later with `client.tools.respond` / `client.tools.fail` (an
 * identical repeat is harmless on the server).
 */
export class ToolReportError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolReportError';
  override readonly name = 'ToolReportError' as const;
  readonly sessionId: string;
  readonly requestId: string;
  /** What was to be reported: the output, or the failure message. */
  readonly report: { kind: 'complete'; output: Record<string, unknown> } | { kind: 'error'; message: string };
  constructor(
    message: string,
    init: {
      sessionId: string;
      requestId: string;
      report: ToolReportError['report'];
      cause?: unknown;
    },
  ) {
    super(message, { cause: init.cause });
    this.sessionId = init.sessionId;
    this.requestId = init.requestId;
    this.report = init.report;
  }
}

/**
 * A tool's output is too large to send: its response body would be over the server's request
 * body limit (found before sending, or told by the server's `413`). `runTool` reports it to the
 * model as the call's ERROR, so the conversation goes on; this is that result's `cause`.
 */
export class ToolOutputTooLargeError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolOutputTooLargeError';
  override readonly name = 'ToolOutputTooLargeError' as const;
  /** Bytes of the response body the output makes (`{"response":{...,"state":"COMPLETE"}}`, UTF-8). */
  readonly bytes: number;
  /**
   * The limit it is over: the server's (from its `413`) or the one `runTool` assumed; `undefined`
   * when a `413` did not say.
   */
  readonly maxBytes: number | undefined;
  constructor(message: string, init: { bytes: number; maxBytes: number | undefined; cause?: unknown }) {
    super(message, { cause: init.cause });
    this.bytes = init.bytes;
    this.maxBytes = init.maxBytes;
  }
}
