import { describeValue } from '../../internal/option-check.js';
import { isTimerDelay, MAX_TIMER_MS } from '../../internal/timer-delay.js';
import type { PendingTool } from '../../wire/index.js';
import type { AnyTool, ToolContext } from '../define/define-tool.js';
import { askApproval } from './ask-approval.js';
import type { ExecuteControls } from './execute-tool.js';
import { heartbeatIntervalMs } from './heartbeat.js';
import { TimeLimit } from './time-limit.js';
import type { ToolApproval, ToolApprover } from './tool-approval.js';

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
  heartbeatTimeoutMs?: number | undefined;
}

/**
 * What stands between a call's input and its handler: the approval (`needsApproval`, `approve`)
 * and the handler's time limit (`timeoutMs`). Undefined for a call with neither, so that the
 * common call pays nothing for them. Throws a `TypeError` for a tool that needs approval when no
 * `approve` was given, and a `RangeError` for a time limit no timer can keep.
 */
export function callControls(options: CallControlOptions): CallControls | undefined {
  const { tool } = options;
  const timeoutMs = tool.timeoutMs ?? options.toolTimeoutMs;
  const needsApproval = tool.needsApproval !== undefined && tool.needsApproval !== false;
  if (timeoutMs === undefined && !needsApproval) return undefined;
  if (timeoutMs !== undefined && !isTimerDelay(timeoutMs)) {
    throw new RangeError(
      `runTool: the time limit of tool "${tool.name}" must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${describeValue(timeoutMs)}`,
    );
  }
  if (needsApproval && options.approve === undefined) throw approverMissing([tool.name]);
  return new CallControls(options, timeoutMs);
}

/** The error for tools that need approval when no one was named to give it. */
export function approverMissing(names: readonly string[]): TypeError {
  const list = names.map((name) => `"${name}"`).join(', ');
  return new TypeError(
    `The tool${names.length > 1 ? 's' : ''} ${list} need${names.length > 1 ? '' : 's'} approval ` +
      '(needsApproval) but no approve callback was given: pass approve to runToolLoop (or runTool)',
  );
}

/** One call's controls; {@link forCall} gives what `executeTool` runs them with. */
export class CallControls {
  /** The handler's time limit, when it has one. */
  readonly limit: TimeLimit | undefined;
  /** Who approved what, once asked. */
  approval: ToolApproval | undefined;
  readonly #options: CallControlOptions;
  /** When the approval wait ends, in `Date.now()` ms; undefined when the call's deadline is unknown. */
  readonly #waitEndsAt: number | undefined;

  constructor(options: CallControlOptions, timeoutMs: number | undefined) {
    this.#options = options;
    this.limit = timeoutMs === undefined ? undefined : new TimeLimit(options.tool.name, timeoutMs);
    const { createdAt, deadlineAt } = options.pending;
    // The server's clock may differ from this one: count the call's lifetime from when its reply
    // arrived here, and stop waiting one heartbeat interval (the time each beat is given to reach
    // the server) early, so that the ERROR report lands before the deadline abandons the call.
    this.#waitEndsAt =
      typeof createdAt === 'number' && typeof deadlineAt === 'number'
        ? (options.receivedAt ?? Date.now()) +
          (deadlineAt - createdAt) -
          heartbeatIntervalMs(options.heartbeatTimeoutMs)
        : undefined;
  }

  forCall(ctx: ToolContext): ExecuteControls {
    const { tool, approve } = this.#options;
    const gate =
      approve === undefined
        ? undefined
        : async (input: unknown) => {
            const waitEndsAt = this.#waitEndsAt;
            const waitMs = waitEndsAt === undefined ? undefined : Math.max(0, waitEndsAt - Date.now());
            const { approval, refused } = await askApproval({ tool, input, ctx, approve, waitMs });
            this.approval = approval;
            return refused;
          };
    return { gate, limit: this.limit };
  }
}
