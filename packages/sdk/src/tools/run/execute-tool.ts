import { ToolExecutionError } from '../../errors/tool-execution-error.js';
import { raceSignal } from '../../internal/race-signal.js';
import { isTimerDelay } from '../../internal/timer-delay.js';
import type { PendingTool } from '../../wire/index.js';
import type { AnyTool, ToolContext } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
import { approvalStage } from './approval-stage.js';
import type { CallControls } from './call-controls.js';
import { checkInputStage } from './check-input.js';
import { checkOutputStage } from './check-output.js';
import { callDeadlineStage, timeLimitStage } from './time-limit.js';
import {
  type CallState,
  failureText,
  handlerStep,
  middlewareStage,
  runStages,
  type ToolStage,
} from './tool-pipeline.js';

/**
 * What running a call came to, before anything is reported: an output to send, an ERROR for the
 * model, or `stopped` (the call was lost or the run aborted: nothing is to be reported).
 */
export type Outcome =
  | { kind: 'complete'; output: ToolObject }
  | { kind: 'error'; message: string; cause: unknown }
  | { kind: 'stopped' };

/** The outcome, the record of the approval when the call needed one, and of a repaired input. */
export interface Execution extends CallState {
  outcome: Outcome;
}

export interface ExecuteToolOptions {
  sessionId: string;
  pending: Pick<PendingTool, 'requestId' | 'name' | 'input'>;
  tool: AnyTool;
  /**
   * Aborted when the call is lost or the run is aborted: the handler's `ctx.signal` aborts with
   * it, and the execution ends at once as `stopped`, even when the handler ignores its signal.
   */
  stop: AbortSignal;
  /** The approval, the time limit, the middleware, the repairer and the deadline, when the call has them. */
  controls?: CallControls | undefined;
  /** The server's request body limit; default `defaults.tools.maxBodyBytes`. */
  maxBodyBytes?: number | undefined;
  /**
   * The call's heartbeat interval: the pipeline ends this long before the call's deadline (the
   * time each beat is given to reach the server), so that the ERROR report lands before the
   * deadline abandons the call.
   */
  heartbeatIntervalMs: number;
  /** The handler's `ctx.attempt` (default 1). */
  attempt?: number | undefined;
}

/**
 * The stages a call runs through, outermost first; each is a middleware of one shape
 * (`(call, next) => output`), and the handler is the innermost step:
 *
 * 1. the call's deadline: outermost, so that it bounds everything inside it, every callback
 *    included, and the ERROR is reported before the server abandons the call;
 * 2. the input's check (and `repairToolInput`): everything after it gets the parsed input;
 * 3. the output's check: outside the middleware, so that a middleware's own result (a cache) is
 *    checked as a handler's is;
 * 4. the middleware, the loop's then the tool's: around the approval, so that a cache can answer
 *    without asking anyone;
 * 5. the approval: after the middleware, so that it is asked about the input that runs;
 * 6. the time limit: around the handler alone (a person's thinking does not count), one per run.
 */
export function pipelineStages(options: ExecuteToolOptions, state: CallState): ToolStage[] {
  const { tool, controls } = options;
  const expiresAt =
    controls?.deadline === undefined ? undefined : controls.deadline - options.heartbeatIntervalMs;
  // A deadline further away than a timer can keep is no deadline the call can act on.
  const bounded =
    expiresAt !== undefined && (expiresAt <= Date.now() || isTimerDelay(expiresAt - Date.now()));
  const stages: Array<ToolStage | false | undefined> = [
    bounded && callDeadlineStage(expiresAt, state),
    checkInputStage(tool, controls?.repairToolInput, state),
    checkOutputStage(tool, options.maxBodyBytes),
    ...(controls?.middleware ?? []).map(middlewareStage),
    controls?.approve !== undefined &&
      tool.needsApproval !== undefined &&
      tool.needsApproval !== false &&
      approvalStage(tool, controls.approve, bounded ? expiresAt : undefined, state),
    controls?.timeoutMs !== undefined && timeLimitStage(controls.timeoutMs),
  ];
  return stages.filter((stage): stage is ToolStage => typeof stage === 'function');
}

/**
 * Runs a call through its pipeline ({@link pipelineStages}) to an outcome. Never throws: every
 * failure of what the tool's author or the caller supplied (a schema, the handler, a middleware,
 * `needsApproval`, `approve`, `repairToolInput`; thrown, rejected, or past the call's deadline) is
 * an ERROR outcome whose message the model reads.
 */
export async function executeTool(options: ExecuteToolOptions): Promise<Execution> {
  const { stop, pending } = options;
  const execution: Execution = { outcome: STOPPED };
  const ctx: ToolContext = {
    signal: stop,
    sessionId: options.sessionId,
    requestId: pending.requestId,
    name: pending.name,
    rawInput: pending.input,
    attempt: options.attempt ?? 1,
  };
  const running = runStages(pipelineStages(options, execution), handlerStep(options.tool), {
    input: pending.input,
    ctx,
  });
  try {
    // The race rejects when `stop` aborts, even while a callback ignores its signal.
    const output = (await raceSignal(running, stop)) as ToolObject;
    execution.outcome = { kind: 'complete', output };
  } catch (error) {
    if (!stop.aborted) execution.outcome = failed(error, pending.name);
  }
  return execution;
}

const STOPPED: Outcome = { kind: 'stopped' };

function failed(error: unknown, name: string): Outcome {
  // A stage's failure carries what the model reads and what caused it.
  if (error instanceof ToolExecutionError)
    return { kind: 'error', message: error.message, cause: error.cause };
  return { kind: 'error', message: failureText(error, name), cause: error };
}
