import { isTimerDelay, MAX_TIMER_MS } from '../../internal/timer-delay.js';
import { describeValue } from '../../internal/wrong-value.js';
import type { PendingTool } from '../../wire/index.js';
import type { AnyTool, ToolMiddleware } from '../define/define-tool.js';
import type { ToolInputRepairer } from './input-repair.js';
import type { ToolApprover } from './tool-approval.js';

/** When a call was made and when it is abandoned (server clock, Unix ms), when the caller knows. */
export interface CallTimes {
  createdAt?: number | undefined;
  deadlineAt?: number | undefined;
}

/** The options of `runTool` that set a call's controls. */
export interface CallControlOptions {
  pending: Pick<PendingTool, 'name'> & CallTimes;
  tool: AnyTool;
  approve?: ToolApprover | undefined;
  toolTimeoutMs?: number | undefined;
  receivedAt?: number | undefined;
  middleware?: readonly ToolMiddleware[] | undefined;
  repairToolInput?: ToolInputRepairer | undefined;
}

/**
 * What stands between a call's input and its handler, as `executeTool`'s pipeline applies it: the
 * call's deadline, the repairer of an input that fails the schema, the middleware, the approval
 * (`needsApproval`, `approve`) and the handler's time limit (`timeoutMs`).
 */
export interface CallControls {
  /** The handler's time limit in ms, when it has one. */
  timeoutMs: number | undefined;
  /** Who is asked, for a tool that may need approval. */
  approve: ToolApprover | undefined;
  /**
   * When the call's deadline comes, on this machine's clock (`Date.now()` ms); undefined when it is
   * unknown. The call's pipeline (an approval wait included) ends one heartbeat interval before it.
   */
  deadline: number | undefined;
  /** Around the approval, the time limit and the handler: the loop's middleware, then the tool's. */
  middleware: readonly ToolMiddleware[];
  /** Asked for a fixed input when the model's fails the schema (`repairToolInput`). */
  repairToolInput: ToolInputRepairer | undefined;
}

/**
 * A call's controls, read once from `runTool`'s options. Undefined for a call with none (not even a
 * known deadline), so that such a call pays nothing for them. Throws a `TypeError` for a tool that needs approval when
 * no `approve` was given, and a `RangeError` for a time limit no timer can keep.
 */
export function callControls(options: CallControlOptions): CallControls | undefined {
  const { tool, approve } = options;
  const timeoutMs = tool.timeoutMs ?? options.toolTimeoutMs;
  const needsApproval = tool.needsApproval !== undefined && tool.needsApproval !== false;
  const wrapped = (options.middleware?.length ?? 0) + (tool.middleware?.length ?? 0) > 0;
  const { repairToolInput } = options;
  const { createdAt, deadlineAt } = options.pending;
  // The server's clock may differ from this one: count the call's lifetime from when its reply
  // arrived here.
  const deadline =
    typeof createdAt === 'number' && typeof deadlineAt === 'number'
      ? (options.receivedAt ?? Date.now()) + (deadlineAt - createdAt)
      : undefined;
  if (timeoutMs === undefined && !needsApproval && !wrapped && !repairToolInput && deadline === undefined) {
    return undefined;
  }
  if (timeoutMs !== undefined && !isTimerDelay(timeoutMs)) {
    throw new RangeError(
      `runTool: the time limit of tool "${tool.name}" must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${describeValue(timeoutMs)}`,
    );
  }
  if (needsApproval && approve === undefined) throw approverMissing([tool.name]);
  const middleware = wrapped ? [...(options.middleware ?? []), ...(tool.middleware ?? [])] : [];
  return { timeoutMs, approve, deadline, middleware, repairToolInput };
}

/** The error for tools that need approval when no one was named to give it. */
export function approverMissing(names: readonly string[]): TypeError {
  const list = names.map((name) => `"${name}"`).join(', ');
  return new TypeError(
    `The tool${names.length > 1 ? 's' : ''} ${list} need${names.length > 1 ? '' : 's'} approval ` +
      '(needsApproval) but no approve callback was given: pass approve to runToolLoop (or runTool)',
  );
}
