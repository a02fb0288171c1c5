import { isTimerDelay, MAX_TIMER_MS } from '../../internal/timer-delay.js';
import { describeValue } from '../../internal/wrong-value.js';
import type { AnyTool } from '../define/define-tool.js';
import { approverMissing } from '../run/call-controls.js';
import type { RunToolLoopOptions } from './tool-loop-options.js';

/**
 * Checks the loop's controls before anything is sent, so a mistake fails the run at its start:
 * a tool that needs approval with no `approve` (naming the tools), a `toolTimeoutMs` or
 * `heartbeatTimeoutMs` no timer can keep, a `stopWhen`, `approve`, `middleware` or
 * `repairToolInput` that is not a function (or list of them).
 */
export function checkLoopControls(options: RunToolLoopOptions, tools: ReadonlyMap<string, AnyTool>): void {
  const { approve, stopWhen, toolTimeoutMs } = options;
  if (approve !== undefined && typeof approve !== 'function') {
    throw new TypeError(
      `runToolLoop: approve must be a function (call) => answer, got ${describeValue(approve)}`,
    );
  }
  if (approve === undefined) {
    const needing = [...tools.values()].filter(
      (t) => t.needsApproval !== undefined && t.needsApproval !== false,
    );
    if (needing.length > 0) throw approverMissing(needing.map((t) => t.name));
  }
  if (toolTimeoutMs !== undefined && !isTimerDelay(toolTimeoutMs)) {
    throw new RangeError(
      `runToolLoop: toolTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${describeValue(toolTimeoutMs)}`,
    );
  }
  const { middleware, repairToolInput, heartbeatTimeoutMs, resume } = options;
  if (resume !== undefined && typeof resume !== 'boolean') {
    throw new TypeError(`runToolLoop: resume must be a boolean, got ${typeof resume}`);
  }
  if (
    middleware !== undefined &&
    !(Array.isArray(middleware) && middleware.every((m) => typeof m === 'function'))
  ) {
    throw new TypeError('runToolLoop: middleware must be a list of functions (call, next) => output');
  }
  if (repairToolInput !== undefined && typeof repairToolInput !== 'function') {
    throw new TypeError(
      `runToolLoop: repairToolInput must be a function ({ call, input, issues }) => input, got ${typeof repairToolInput}`,
    );
  }
  if (heartbeatTimeoutMs !== undefined && !isTimerDelay(heartbeatTimeoutMs)) {
    throw new RangeError(
      `runToolLoop: heartbeatTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${String(heartbeatTimeoutMs)}`,
    );
  }
  if (stopWhen !== undefined) {
    const conditions: readonly unknown[] = Array.isArray(stopWhen) ? stopWhen : [stopWhen];
    if (conditions.some((condition) => typeof condition !== 'function')) {
      throw new TypeError(
        'runToolLoop: stopWhen must be a condition (step, steps) => boolean, or a list of them',
      );
    }
  }
}
