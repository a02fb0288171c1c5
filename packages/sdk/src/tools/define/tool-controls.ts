import { MAX_TIMER_MS } from '../../internal/timer-delay.js';
import { describeValue } from '../../internal/wrong-value.js';

/**
 * The loop controls' rules (approval, stop, time limit, middleware, running alone), as issues like
 * the other definition checks.
 */
export function controlProblems(
  needsApproval: unknown,
  endsLoop: unknown,
  timeoutMs: unknown,
  middleware: unknown,
  exclusive: unknown,
): string[] {
  const problems: string[] = [];
  if (
    middleware !== undefined &&
    !(Array.isArray(middleware) && middleware.every((m) => typeof m === 'function'))
  ) {
    problems.push('✖ middleware must be a list of functions (call, next) => output\n  → at middleware');
  }
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function'
  ) {
    problems.push(
      '✖ needsApproval must be a boolean or a function (input, call) => boolean\n  → at needsApproval',
    );
  }
  for (const [name, value] of [
    ['endsLoop', endsLoop],
    ['exclusive', exclusive],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean')
      problems.push(`✖ ${name} must be a boolean\n  → at ${name}`);
  }
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)
  ) {
    problems.push(
      `✖ timeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${describeValue(timeoutMs)}\n  → at timeoutMs`,
    );
  }
  return problems;
}
