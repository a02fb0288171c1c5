import { CLASS_BRAND, ParleyError } from './parley-error.js';

/**
 * No answer to a call's approval came in time: `runToolLoop({ approve })` (or `runTool`) waits
 * until one heartbeat interval before the call's deadline (`deadlineAt`), then gives up. The approval request's `signal` aborts with this error (take the prompt down),
 * the handler does not run, and the call is reported to the model as an ERROR with this message.
 */
export class ToolApprovalTimeoutError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolApprovalTimeoutError';
  override readonly name = 'ToolApprovalTimeoutError' as const;
  readonly sessionId: string;
  readonly requestId: string;
  /** The tool's name. */
  readonly toolName: string;
  /** How long the answer was awaited, in ms. */
  readonly waitedMs: number;
  constructor(init: { sessionId: string; requestId: string; toolName: string; waitedMs: number }) {
    super(
      `Tool "${init.toolName}" was not run: no one approved the call before its deadline ` +
        `(waited ${init.waitedMs} ms for an answer)`,
    );
    this.sessionId = init.sessionId;
    this.requestId = init.requestId;
    this.toolName = init.toolName;
    this.waitedMs = init.waitedMs;
  }
}
