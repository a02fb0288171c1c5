import type { ContextLike } from './tracer-like.js';

// The global registry every copy of `@opentelemetry/api` 1.x shares (`{ version, trace, context,
// ... }`): its `context` entry is the context manager registered with
// `context.setGlobalContextManager` (an OpenTelemetry SDK's `register()` does that).
const API_KEY = Symbol.for('opentelemetry.js.api.1');

/** The parts of an OpenTelemetry `ContextManager` the SDK calls. */
interface ContextManagerLike {
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

/** A context of the SDK's own, for when no context manager is registered (the API's `ROOT_CONTEXT` is one too). */
function mapContext(values: Map<symbol, unknown>): ContextLike {
  return {
    getValue: (key) => values.get(key),
    setValue: (key, value) => mapContext(new Map(values).set(key, value)),
    deleteValue: (key) => {
      const copy = new Map(values);
      copy.delete(key);
      return mapContext(copy);
    },
  };
}

export const ROOT_CONTEXT = mapContext(new Map());

interface Storage {
  getStore(): ContextLike | undefined;
  run<T>(store: ContextLike, fn: () => T): T;
}

/**
 * The SDK's own context manager, for when none is registered. Where `node:async_hooks` is built in
 * (Node, and runtimes that provide it), an `AsyncLocalStorage`: the context follows the work across
 * `await`s and timers. Elsewhere (a browser) the context is active while `fn` runs synchronously,
 * as OpenTelemetry's `StackContextManager` does: the SDK enters a span's context again around each
 * call that starts a child, so its own spans nest either way.
 */
function ownManager(): ContextManagerLike {
  let storage: Storage | undefined;
  try {
    const hooks = (
      globalThis as { process?: { getBuiltinModule?(id: string): unknown } }
    ).process?.getBuiltinModule?.('node:async_hooks') as
      | { AsyncLocalStorage?: new () => Storage }
      | undefined;
    if (hooks?.AsyncLocalStorage) storage = new hooks.AsyncLocalStorage();
  } catch {
    // No async_hooks here: the synchronous manager below.
  }
  if (storage) {
    const als = storage;
    return { active: () => als.getStore() ?? ROOT_CONTEXT, with: (context, fn) => als.run(context, fn) };
  }
  let current = ROOT_CONTEXT;
  return {
    active: () => current,
    with(context, fn) {
      const previous = current;
      current = context;
      try {
        return fn();
      } finally {
        current = previous;
      }
    },
  };
}

let own: ContextManagerLike | undefined;

/** The registered context manager, else the SDK's own (made on first use). */
export function contextManager(): ContextManagerLike {
  const registered = registry()?.context;
  if (registered) return registered;
  own ??= ownManager();
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
