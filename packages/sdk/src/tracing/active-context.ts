import { type ContextManagerLike, ownContextManager, ROOT_CONTEXT } from './own-context-manager.js';
import type { ContextLike } from './tracer-like.js';

// The global registry every copy of `@opentelemetry/api` 1.x shares (`{ version, trace, context,
// ... }`): its `context` entry is the context manager registered with
// `context.setGlobalContextManager` (an OpenTelemetry SDK's `register()` does that).
const API_KEY = Symbol.for('opentelemetry.js.api.1');

/** The registry's entries the SDK reads: the provider of `'global'`, and the context manager. */
export interface Registry {
  trace?: { getTracer(name: string): unknown };
  context?: ContextManagerLike;
}

/** The registry, once a copy of `@opentelemetry/api` has registered something. */
export function registry(): Registry | undefined {
  return (globalThis as Record<symbol, Registry | undefined>)[API_KEY];
}

let own: ContextManagerLike | undefined;

/** The registered context manager, else the SDK's own (made on first use). */
export function contextManager(): ContextManagerLike {
  const registered = registry()?.context;
  if (registered) return registered;
  own ??= ownContextManager();
  return own;
}

/**
 * The active context (`context.active()`): the registered context manager's, else the SDK's own.
 * A context manager that throws, or answers with no context, counts as an empty context.
 */
export function activeContext(): ContextLike {
  try {
    const context = contextManager().active();
    if (typeof context?.setValue === 'function') return context;
  } catch {
    // Tracing observes a call and never changes it.
  }
  return ROOT_CONTEXT;
}
