import { ParleyError } from './parley-error.js';

/** Why a tool call was lost while a worker held it. */
export type ToolCallLostReason = 'ABANDONED' | 'NOT_FOUND' | 'TIMED_OUT';

/**
 * A tool call the worker can no longer settle: abandoned on the server (409), gone (404), or no
 * heartbeat succeeded for longer than the server's timeout.
 */
export class ToolCallLostError extends ParleyError {
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
