import type { AnyTool } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';

/** What `approve` is asked: one call of a tool defined with `needsApproval`. */
export interface ToolApprovalRequest {
  sessionId: string;
  /** The `tool_use` id, which is the `:requestId` of the tool endpoints. */
  requestId: string;
  /** The tool's name as the model called it. */
  name: string;
  /** The input as the tool's input schema parsed it: what the handler will get if approved. */
  input: unknown;
  /** The input exactly as the model sent it. */
  rawInput: ToolObject;
  tool: AnyTool;
  /**
   * Aborted when the answer is no longer wanted: no answer came before the call's deadline (its
   * reason is then a `ToolApprovalTimeoutError`), the call was lost, or the run was aborted. Take
   * the question down when it aborts.
   */
  signal: AbortSignal;
  /**
   * When the wait ends unanswered, in this machine's `Date.now()` ms: one heartbeat interval
   * before the call's deadline, so the ERROR report lands in time. Undefined when the call's
   * deadline is unknown.
   */
  expiresAt: number | undefined;
}

/** The answer to a {@link ToolApprovalRequest}. `by` names who decided; the step records it. */
export type ToolApprovalAnswer =
  | { approved: true; by?: string | undefined }
  | { approved: false; reason: string; by?: string | undefined };

/**
 * Decides whether a call runs. Awaited while the call's heartbeat keeps its lease, so a person may
 * take until shortly before the call's deadline.
 */
export type ToolApprover = (request: ToolApprovalRequest) => ToolApprovalAnswer | Promise<ToolApprovalAnswer>;

/** Who approved what: the record of one call that needed approval. */
export interface ToolApproval {
  requestId: string;
  name: string;
  /** The input the decision was about, exactly as the model sent it. */
  input: ToolObject;
  /**
   * `approved`: the handler ran. `denied`: the model got an ERROR with the reason. `timed_out`: no
   * answer before the call's deadline. `failed`: `approve` or the `needsApproval` predicate threw,
   * or `approve` answered something else than an approval or a denial (the model got an ERROR).
   */
  outcome: 'approved' | 'denied' | 'timed_out' | 'failed';
  /** Who decided, as the answer said. */
  by?: string | undefined;
  /** Why not: the denial's reason, or what went wrong. */
  reason?: string | undefined;
}
