import type { ToolCallLostError } from '../../errors/index.js';
import type { AnyTool, Tool } from '../define/define-tool.js';
import type { ObjectSchema, SchemaOutput, ToolObject } from '../define/tool-schema.js';
import type { ToolInputRepair } from './input-repair.js';
import type { ToolApproval } from './tool-approval.js';

/**
 * How one tool call ended:
 * - `COMPLETE`: the output was submitted;
 * - `ERROR`: a failure was reported to the model (bad input, a thrown error, bad output);
 * - `LOST`: the call was abandoned (409), is gone (404) or its heartbeats failed for too long;
 *   nothing was reported;
 * - `ALREADY_SETTLED`: the report got 409: another worker (or an earlier attempt) settled it first.
 */
export type ToolRunStatus = 'COMPLETE' | 'ERROR' | 'LOST' | 'ALREADY_SETTLED';

/** The output a tool submits: its output schema's parsed value, or any object without one. */
export type ToolRunOutput<TTool extends AnyTool = AnyTool> =
  TTool extends Tool<infer _I, infer O>
    ? [O] extends [ObjectSchema]
      ? unknown extends SchemaOutput<O>
        ? ToolObject
        : SchemaOutput<O>
      : ToolObject
    : ToolObject;

export interface ToolRunBase {
  requestId: string;
  name: string;
  /** Who approved what, for a call of a tool with `needsApproval` that was asked about. */
  approval?: ToolApproval | undefined;
  /** The input `repairToolInput` fixed, when the model's failed the tool's schema and it did. */
  repair?: ToolInputRepair | undefined;
}

/** The output was checked and submitted. */
export interface ToolRunComplete<TTool extends AnyTool = AnyTool> extends ToolRunBase {
  status: 'COMPLETE';
  /** The submitted output, typed from the tool's output schema when it has one. */
  output: ToolRunOutput<TTool>;
  error?: undefined;
  cause?: undefined;
}

/** A failure was reported to the model: bad input, a thrown error, bad output, an unknown tool. */
export interface ToolRunError extends ToolRunBase {
  status: 'ERROR';
  output?: undefined;
  /** The message the model got. */
  error: string;
  /**
   * What failed: the thrown value, the schema library's issues (an array), the `ToolTimeoutError`,
   * the denial; none for an unknown tool or for an input a middleware changed after approval.
   */
  cause?: unknown;
}

/** The call was abandoned (409), is gone (404) or its heartbeats failed for too long; nothing was reported. */
export interface ToolRunLost extends ToolRunBase {
  status: 'LOST';
  output?: undefined;
  /** Why nothing was reported. */
  error: string;
  cause: ToolCallLostError;
}

/** The report got 409: another worker (or an earlier attempt) settled the call first. */
export interface ToolRunAlreadySettled extends ToolRunBase {
  status: 'ALREADY_SETTLED';
  output?: undefined;
  error: string;
  /** The `ConflictError` of the report. */
  cause: unknown;
}

/** How one tool call ended: a union on `status`, so `result.output` is there after `status === 'COMPLETE'`. */
export type ToolRunResult<TTool extends AnyTool = AnyTool> =
  | ToolRunComplete<TTool>
  | ToolRunError
  | ToolRunLost
  | ToolRunAlreadySettled;
