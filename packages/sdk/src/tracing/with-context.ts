import { type ContextManagerLike, own, registry } from './active-context.js';
import { ownContextManager } from './own-context-manager.js';
import type { ContextLike } from './tracer-like.js';

/** The registered context manager, else the SDK's own (made on first use). */
function contextManager(): ContextManagerLike {
  const registered = registry()?.context;
  if (registered) return registered;
  own.manager ??= ownContextManager();
  return own.manager;
}

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
