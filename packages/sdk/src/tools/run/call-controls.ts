import { isTimerDelay, MAX_TIMER_MS } from '../../internal/timer-delay.js';
import type { PendingTool } from '../../wire/index.js';
import type { AnyTool, ToolContext, ToolMiddleware } from '../define/define-tool.js';
import { askApproval } from './ask-approval.js';
import type { ExecuteControls } from './execute-tool.js';
import { heartbeatIntervalMs } from './heartbeat.js';
import { repairInput, type ToolInputRepair, type ToolInputRepairer } from './input-repair.js';
import type { Outcome } from './outcome.js';
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
  middleware?: readonly ToolMiddleware[] | undefined;
  repairToolInput?: ToolInputRepairer | undefined;
}

/**
 * What stands between a call's input and its handler: the approval (`needsApproval`, `approve`),
 * the handler's time limit (`timeoutMs`), the middleware around them and the input repairer.
 * Undefined for a call with none, so that the common call pays nothing for them. Throws a
 * `TypeError` for a tool that needs approval when no `approve` was given, and a `RangeError` for a
 * time limit no timer can keep.
 */
export function callControls(options: CallControlOptions): CallControls | undefined {
  const { tool } = options;
  const timeoutMs = tool.timeoutMs ?? options.toolTimeoutMs;
  const needsApproval = tool.needsApproval !== undefined && tool.needsApproval !== false;
  const wrapped = (options.middleware?.length ?? 0) + (tool.middleware?.length ?? 0) > 0;
  if (timeoutMs === undefined && !needsApproval && !wrapped && !options.repairToolInput) return undefined;
  if (timeoutMs !== undefined && !isTimerDelay(timeoutMs)) {
    throw new RangeError(
      `runTool: the time limit of tool "${tool.name}" must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${String(timeoutMs)}`,
    );
  }
  if (needsApproval && options.approve === undefined) throw approverMissing([tool.name]);
  const middleware = wrapped ? [...(options.middleware ?? []), ...(tool.middleware ?? [])] : [];
  return new CallControls(options, timeoutMs, middleware);
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
  /** The repaired input, when `repairToolInput` fixed it. */
  repair: ToolInputRepair | undefined;
  readonly #options: CallControlOptions;
  readonly #middleware: readonly ToolMiddleware[];
  /** When the approval wait ends, in `Date.now()` ms; undefined when the call's deadline is unknown. */
  readonly #waitEndsAt: number | undefined;

  constructor(
    options: CallControlOptions,
    timeoutMs: number | undefined,
    middleware: readonly ToolMiddleware[],
  ) {
    this.#options = options;
    this.#middleware = middleware;
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
    const { tool, approve, repairToolInput } = this.#options;
    // Asked once per call, however often a middleware calls `next` (a retry).
    let asked: Promise<Outcome | undefined> | undefined;
    const gate =
      approve === undefined
        ? undefined
        : (input: unknown) => {
            asked ??= (async () => {
              const waitEndsAt = this.#waitEndsAt;
              const waitMs = waitEndsAt === undefined ? undefined : Math.max(0, waitEndsAt - Date.now());
              const { approval, refused } = await askApproval({ tool, input, ctx, approve, waitMs });
              this.approval = approval;
              return refused;
            })();
            return asked;
          };
    const repair =
      repairToolInput === undefined
        ? undefined
        : async (issues: Parameters<typeof repairInput>[3]) => {
            const { sessionId, requestId, name, rawInput } = ctx;
            const result = await repairInput(
              repairToolInput,
              tool,
              { sessionId, requestId, name, rawInput },
              issues,
            );
            if (result && 'repair' in result) this.repair = result.repair;
            return result;
          };
    return { gate, limit: this.limit, middleware: this.#middleware, repair };
  }
}
