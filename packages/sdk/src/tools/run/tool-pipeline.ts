import { ToolExecutionError, type ToolExecutionFailure } from '../../errors/tool-execution-error.js';
import type { AnyTool, ToolContext, ToolMiddleware, ToolMiddlewareCall } from '../define/define-tool.js';
import type { ToolInputRepair } from './input-repair.js';
import type { ToolApproval } from './tool-approval.js';

/**
 * One stage of a call's pipeline: a middleware of the same shape as a user's, whose `next` also
 * takes the context the rest of the pipeline runs with (a time limit hands its own signal inward).
 * A stage fails by throwing a {@link ToolExecutionError}.
 */
export type ToolStage = (
  call: ToolMiddlewareCall,
  next: (input: unknown, ctx: ToolContext) => Promise<unknown>,
) => Promise<unknown>;

/** What the stages of one call record for its result, and what the deadline reads. */
export interface CallState {
  /** The approval's decision, once one was made. */
  approval?: ToolApproval | undefined;
  /** The repaired input, when `repairToolInput` fixed one. */
  repair?: ToolInputRepair | undefined;
  /**
   * Set while an approval is awaited: the deadline calls it to end the wait, which records the
   * approval as `timed_out` and gives the error to abort with.
   */
  expireApproval?: (() => Error) | undefined;
}

/** Runs `call` through `stages` (the first is the outermost), then `handler`. */
export function runStages(
  stages: readonly ToolStage[],
  handler: (input: unknown, ctx: ToolContext) => Promise<unknown>,
  call: ToolMiddlewareCall,
): Promise<unknown> {
  const dispatch = (index: number, input: unknown, ctx: ToolContext): Promise<unknown> => {
    // A call that ended (lost, aborted, past its limit) starts nothing more: a callback that answers
    // late (repairToolInput, needsApproval, a middleware's next()) gets the reason it ended.
    if (ctx.signal.aborted) return Promise.reject(ctx.signal.reason);
    const stage = stages[index];
    if (stage === undefined) return handler(input, ctx);
    return stage({ input, ctx }, (next, nextCtx) => dispatch(index + 1, next, nextCtx));
  };
  return dispatch(0, call.input, call.ctx);
}

/** A failure of a stage of the call `ctx` describes. */
export function stageFailure(
  ctx: ToolContext,
  reason: ToolExecutionFailure,
  message: string,
  cause?: unknown,
): ToolExecutionError {
  return new ToolExecutionError(message, { reason, toolName: ctx.name, requestId: ctx.requestId, cause });
}

/**
 * A user's middleware as a stage: `next(input?)` runs the rest with the same context, and whatever
 * the middleware throws that is not a `ToolExecutionError` already becomes one
 * (`MIDDLEWARE_FAILED`), so that the middleware outside it sees the same class from `next()`.
 */
export function middlewareStage(middleware: ToolMiddleware): ToolStage {
  return async ({ input, ctx }, next) => {
    try {
      return await middleware({ input, ctx }, (changed?: unknown) =>
        next(changed === undefined ? input : changed, ctx),
      );
    } catch (error) {
      if (error instanceof ToolExecutionError) throw error;
      throw stageFailure(ctx, 'MIDDLEWARE_FAILED', failureText(error, ctx.name), error);
    }
  };
}

/** The innermost step: the tool's handler, whose failure is `HANDLER_FAILED` with what it threw. */
export function handlerStep(tool: AnyTool): (input: unknown, ctx: ToolContext) => Promise<unknown> {
  return async (input, ctx) => {
    try {
      return await tool.run(input, ctx);
    } catch (error) {
      throw stageFailure(ctx, 'HANDLER_FAILED', failureText(error, ctx.name), error);
    }
  };
}

/** What the model reads for a thrown value: its message, never empty (the server needs one). */
export function failureText(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return message.trim() !== '' ? message : `Tool "${name}" failed without a message`;
}
