import type { AnyTool } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';

/** What `approve` is asked: one call of a tool defined with `needsApproval`. */
export interface ToolApprovalRequest {
  sessionId: string;
  /** The `tool_use` id, which is the `:requestId` of the tool endpoints. */
  requestId: string;
  /** The tool's name as the model called it. */
  name: string;
  /**
   * The input that runs if approved: the model's input as the tool's schema parsed it (or as
   * `repairToolInput` fixed it), or the one a middleware passed to `next()`.
   */
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

/**
 * The answer to a {@link ToolApprovalRequest}; `by` names who decided, and the step records it.
 * - `{ approved: true }` runs the call with the input asked about; `{ approved: true, input }` runs it
 *   with an edited input instead (checked by the tool's input schema; `needsApproval` is not asked again);
 * - `{ approved: false, reason }` does not run it: the model gets an ERROR with the reason;
 * - `{ respond: output }` does not run it either: `output` is the call's result, as if the handler
 *   had returned it (checked by the tool's output schema).
 */
export type ToolApprovalAnswer =
  | { approved: true; input?: ToolObject | undefined; by?: string | undefined; respond?: undefined }
  | { approved: false; reason: string; by?: string | undefined; respond?: undefined }
  | { respond: ToolObject; by?: string | undefined; approved?: undefined };

/**
 * Decides whether a call runs. Awaited while the call's heartbeat keeps its lease, so a person may
 * take until shortly before the call's deadline.
 */
export type ToolApprover = (request: ToolApprovalRequest) => ToolApprovalAnswer | Promise<ToolApprovalAnswer>;

/** Who approved what: the record of one call that needed approval. */
export interface ToolApproval {
  requestId: string;
  name: string;
  /**
   * The input the decision was about, as `approve` was asked it (`request.input`): what ran, unless
   * the answer edited it (`editedInput`).
   */
  input: ToolObject;
  /**
   * `approved`: the handler ran with `input`. `edited`: it ran with `editedInput`. `responded`: it
   * did not run; the answer's `respond` was the result. `denied`: the model got an ERROR with the
   * reason. `timed_out`: no answer before the call's deadline. `failed`: `approve` or the
   * `needsApproval` predicate threw, `approve` answered something else than an approval, a denial or
   * a response, or its edited input failed the schema (the model got an ERROR).
   */
  outcome: 'approved' | 'edited' | 'responded' | 'denied' | 'timed_out' | 'failed';
  /** The input the answer gave instead of `input` (`outcome: 'edited'`, or `failed` when it was invalid). */
  editedInput?: ToolObject | undefined;
  /** Who decided, as the answer said. */
  by?: string | undefined;
  /** Why not: the denial's reason, or what went wrong. */
  reason?: string | undefined;
}
