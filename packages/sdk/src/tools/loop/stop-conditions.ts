import type { ToolLoopStep } from './tool-loop-run.js';

/**
 * A condition `runToolLoop({ stopWhen })` checks after each step, once the step's tool calls are
 * settled: `true` stops the loop (`status: 'stopped'`). `steps` are all the steps so far, this one
 * last. The condition's function name is the reason the result gives (`stepCountIs(3)`).
 */
export type StopCondition = (
  step: ToolLoopStep,
  steps: readonly ToolLoopStep[],
) => boolean | Promise<boolean>;

/**
 * Stops the loop after its `count`-th step (counting from 1). Unlike `maxSteps`, which ends with
 * `status: 'max_steps'`, this is a stop you asked for: `status: 'stopped'`.
 *
 * @example
 * const run = runToolLoop(client, { sessionId, content, tools, stopWhen: stepCountIs(3) });
 */
export function stepCountIs(count: number): StopCondition {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`stepCountIs: count must be an integer >= 1, got ${count}`);
  }
  return named(`stepCountIs(${count})`, (step) => step.step >= count);
}

/**
 * Stops the loop after a step whose reply called the tool `name` (whatever the call's outcome;
 * for a tool that must have completed, define it with `endsLoop: true`).
 *
 * @example
 * const run = runToolLoop(client, { sessionId, content, tools, stopWhen: hasToolCall('submit_answer') });
 */
export function hasToolCall(name: string): StopCondition {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`hasToolCall: name must be a tool name, got ${JSON.stringify(name)}`);
  }
  return named(`hasToolCall(${JSON.stringify(name)})`, (step) =>
    step.reply.pendingTools.some((call) => call.name === name),
  );
}

function named(name: string, condition: StopCondition): StopCondition {
  return Object.defineProperty(condition, 'name', { value: name });
}
