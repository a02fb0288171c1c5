import type { AnyTool } from '../define/define-tool.js';
import { askApproval, type Decision, sameValue } from './ask-approval.js';
import type { ToolApprover } from './tool-approval.js';
import { type CallState, stageFailure, type ToolStage } from './tool-pipeline.js';

/**
 * The approval, inside the middleware and around the time limit and the handler: it is asked about
 * the input that reaches it, which is the input that runs. One decision per call: a middleware
 * that calls `next()` again (a retry) with the same input gets the same decision (approve is not
 * asked twice); with another input after a decision, the call fails (`INPUT_CHANGED`), since no one
 * approved that one. Inputs that reach it at once are decided one after the other.
 */
export function approvalStage(
  tool: AnyTool,
  approve: ToolApprover,
  expiresAt: number | undefined,
  state: CallState,
): ToolStage {
  let decided: { input: unknown; decision: Decision } | undefined;
  let turn: Promise<unknown> = Promise.resolve();
  const decide = async (input: unknown, ctx: Parameters<ToolStage>[0]['ctx']): Promise<Decision> => {
    if (decided) {
      const { decision } = decided;
      if (sameValue(input, decided.input) || (decision.kind === 'run' && sameValue(input, decision.input))) {
        return decision;
      }
      throw stageFailure(
        ctx,
        'INPUT_CHANGED',
        `Tool "${ctx.name}" was not run: a middleware passed next() another input than the one approval was asked about`,
      );
    }
    const decision = await askApproval({ tool, input, ctx, approve, expiresAt, state });
    if (decision.kind === 'none') return decision;
    decided = { input, decision };
    if (decision.approval) state.approval = decision.approval;
    return decision;
  };
  return async ({ input, ctx }, next) => {
    const deciding = turn.then(() => decide(input, ctx));
    turn = deciding.catch(() => {});
    const decision = await deciding;
    if (decision.kind === 'none') return next(input, ctx);
    if (decision.kind === 'run') return next(decision.input, ctx);
    if (decision.kind === 'respond') return decision.output;
    throw decision.error;
  };
}
