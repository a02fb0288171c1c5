import type { ContextLike } from './tracer-like.js';

// The global registry every copy of `@opentelemetry/api` 1.x shares (`{ version, trace, context,
// ... }`): its `context` entry is the context manager registered with
// `context.setGlobalContextManager` (an OpenTelemetry SDK's `register()` does that).
const API_KEY = Symbol.for('opentelemetry.js.api.1');

/** The parts of an OpenTelemetry `ContextManager` the SDK calls. */
export interface ContextManagerLike {
  active(): ContextLike;
  with<T>(context: ContextLike, fn: () => T): T;
}

/** The registry's entries the SDK reads: the provider of `'global'`, and the context manager. */
export interface Registry {
  trace?: { getTracer(name: string): unknown };
  context?: ContextManagerLike;
}

/** The registry, once a copy of `@opentelemetry/api` has registered something. */
export function registry(): Registry | undefined {
  return (globalThis as Record<symbol, Registry | undefined>)[API_KEY];
}

/**
 * The SDK's own context manager (own-context-manager.ts), for when none is registered. The tracing
 * code that enters a span's context makes it (with-context.ts); until then no context of it can be
 * active, so a call that reads the active context needs none of its code.
 */
export const own: { manager?: ContextManagerLike } = {};

/**
 * The active context (`context.active()`): the registered context manager's, else the SDK's own;
 * `undefined` for none (the tracing code takes the empty context, `root-context.ts`, for it). A
 * context manager that throws, or answers with no context, counts as none.
 */
export function activeContext(): ContextLike | undefined {
  try {
    const context = (registry()?.context ?? own.manager)?.active();
    if (typeof context?.setValue === 'function') return context;
  } catch {
    // Tracing observes a call and never changes it.
  }
  return undefined;
}
