import { contextManager } from './active-context.js';
import type { ContextLike } from './tracer-like.js';

/**
 * Runs `fn` with `context` active (`context.with(context, fn)`), and returns what it returns. A
 * context manager that throws, or never calls `fn`, does not change the call: `fn` then runs as it
 * is; what `fn` throws is thrown.
 */
export function withContext<T>(context: ContextLike, fn: () => T): T {
  let outcome: { value: T } | { error: unknown } | undefined;
  try {
    contextManager().with(context, () => {
      try {
        outcome = { value: fn() };
      } catch (error) {
        outcome = { error };
      }
    });
  } catch {
    // The manager failed around `fn`: what `fn` did, if it ran, stands.
  }
  if (!outcome) return fn();
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
