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
    const { sessionId, requestId, name, rawInput } = ctx;
    let checked = await checkValue(tool.input, input, 'input', name);
    if ('failed' in checked && repairer && checked.failed.issues) {
      // A call that ended while its input was checked asks no one to repair it.
      ctx.signal.throwIfAborted();
      const call = { sessionId, requestId, name, rawInput };
      const repaired = await repairInput(repairer, tool, call, checked.failed.issues);
      if (repaired && 'refused' in repaired) checked = { failed: repaired.refused };
      else if (repaired) {
        const { fixed } = repaired;
        checked = await checkValue(tool.input, fixed, 'input', name, ' (also after repairToolInput)');
        if ('value' in checked) state.repair = { requestId, name, input: rawInput, repairedInput: fixed };
      }
    }
    if ('value' in checked) return next(checked.value, ctx);
    throw stageFailure(ctx, 'INVALID_INPUT', checked.failed.message, checked.failed.cause);
  };
}
