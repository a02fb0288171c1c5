import type { AnyTool } from '../define/define-tool.js';
import type { StopCondition } from './stop-conditions.js';
import type { ToolLoopStep, ToolLoopStop } from './tool-loop-run.js';

/**
 * Whether the loop stops after `step` (its calls all settled): a completed call of a tool defined
 * with `endsLoop: true`, else the first of `stopWhen`'s conditions that holds. A promise only when
 * there are conditions to await (a loop without them pays for no extra turn of the event loop). A
 * condition that throws rejects the run (nothing is left open: the step's calls are settled).
 */
export function checkStop(
  step: ToolLoopStep,
  steps: readonly ToolLoopStep[],
  stopWhen: StopCondition | readonly StopCondition[] | undefined,
  tools: ReadonlyMap<string, AnyTool>,
): ToolLoopStop | undefined | Promise<ToolLoopStop | undefined> {
  for (const result of step.toolResults) {
    if (result.status === 'COMPLETE' && tools.get(result.name)?.endsLoop === true) {
      return { by: 'endsLoop', reason: result.name, step: step.step };
    }
  }
  return stopWhen === undefined ? undefined : firstThatHolds(step, steps, stopWhen);
}

async function firstThatHolds(
  step: ToolLoopStep,
  steps: readonly ToolLoopStep[],
  stopWhen: StopCondition | readonly StopCondition[],
): Promise<ToolLoopStop | undefined> {
  for (const condition of typeof stopWhen === 'function' ? [stopWhen] : stopWhen) {
    if (await condition(step, steps)) {
      return { by: 'stopWhen', reason: condition.name || 'stopWhen', step: step.step };
    }
  }
  return undefined;
}
