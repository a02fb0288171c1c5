import { ToolApprovalTimeoutError } from '../../errors/tool-approval-timeout-error.js';
import { ToolTimeoutError } from '../../errors/tool-timeout-error.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { CallState, ToolStage } from './tool-pipeline.js';
import { stageFailure } from './tool-pipeline.js';

/**
 * The handler's time limit (`timeoutMs`), the pipeline's innermost stage: each run of the handler
 * (each `next()` of a middleware that retries) gets a signal of its own, not aborted, and a limit
 * counted from its own start. At the limit its `ctx.signal` aborts with a `ToolTimeoutError`, and
 * the stage stops waiting (even for a handler that ignores its signal): `TIMED_OUT`.
 */
export function timeLimitStage(timeoutMs: number): ToolStage {
  return (call, next) => within(call, next, timeoutMs, () => new ToolTimeoutError(call.ctx.name, timeoutMs));
}

/**
 * The call's deadline, the pipeline's outermost stage: the whole pipeline (input repair, middleware,
 * approval, handler) ends at `expiresAt` (`Date.now()` ms, one heartbeat interval before the call's
 * `deadlineAt`), so that the ERROR is reported before the server abandons the call, whatever callback
 * hangs. An approval awaited then ends as timed out (`ToolApprovalTimeoutError`); anything else is
 * `TIMED_OUT` with a `ToolTimeoutError` for the time the call had.
 */
export function callDeadlineStage(expiresAt: number, state: CallState): ToolStage {
  return (call, next) => {
    const limitMs = Math.max(0, expiresAt - Date.now());
    return within(
      call,
      next,
      limitMs,
      () => state.expireApproval?.() ?? new ToolTimeoutError(call.ctx.name, limitMs),
    );
  };
}

/** Runs the rest within `ms`, with a signal that aborts at the limit (with `reason()`) or with the call's. */
async function within(
  { input, ctx }: Parameters<ToolStage>[0],
  next: Parameters<ToolStage>[1],
  ms: number,
  reason: () => Error,
): Promise<unknown> {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(reason()), ms);
  const link = linkedSignal(ctx.signal, limit.signal);
  try {
    // The call's own end (lost, aborted) ends the wait too: its timer is not left behind.
    return await raceSignal(next(input, { ...ctx, signal: link.signal }), link.signal);
  } catch (error) {
    if (!limit.signal.aborted || error !== limit.signal.reason) throw error;
    const ended = limit.signal.reason as Error;
    const failure = ended instanceof ToolApprovalTimeoutError ? 'APPROVAL_TIMED_OUT' : 'TIMED_OUT';
    throw stageFailure(ctx, failure, ended.message, ended);
  } finally {
    clearTimeout(timer);
    link.unlink();
  }
}
