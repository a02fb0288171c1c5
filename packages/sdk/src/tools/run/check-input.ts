import type { AnyTool } from '../define/define-tool.js';
import { checkValue } from './check-value.js';
import { repairInput, type ToolInputRepairer } from './input-repair.js';
import { type CallState, stageFailure, type ToolStage } from './tool-pipeline.js';

/**
 * The input's check: the model's input parsed by the tool's schema, what the rest of the pipeline
 * gets. Input that fails it goes to `repairToolInput`, when given, whose fixed input is checked
 * again (and recorded); else, or when that fails too, `INVALID_INPUT` with the schema's issues.
 */
export function checkInputStage(
  tool: AnyTool,
  repairer: ToolInputRepairer | undefined,
  state: CallState,
): ToolStage {
  return async ({ input, ctx }, next) => {
    const checked = await checkValue(tool.input, input, 'input', ctx.name);
    if ('value' in checked) return next(checked.value, ctx);
    const { failed } = checked;
    const fixed =
      repairer && failed.issues
        ? await repairInput(
            repairer,
            tool,
            { sessionId: ctx.sessionId, requestId: ctx.requestId, name: ctx.name, rawInput: ctx.rawInput },
            failed.issues,
          )
        : undefined;
    if (fixed === undefined) throw stageFailure(ctx, 'INVALID_INPUT', failed.message, failed.cause);
    if ('refused' in fixed) {
      throw stageFailure(ctx, 'INVALID_INPUT', fixed.refused.message, fixed.refused.cause);
    }
    state.repair = fixed.repair;
    return next(fixed.value, ctx);
  };
}
