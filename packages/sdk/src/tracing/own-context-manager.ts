import type { ContextManagerLike } from './active-context.js';
import { MapContext, ROOT_CONTEXT } from './root-context.js';
import { validSpanIds } from './span-ids.js';
import { SPAN_KEY } from './span-key.js';
import type { ContextLike, SpanLike } from './tracer-like.js';

/**
 * True for a context of the SDK's own that holds nothing but, at most, a span that records nothing
 * and has no valid ids (the API's no-op span, a span that could not start). OpenTelemetry's tracers
 * take such a span for no parent at all (the API's no-op tracer and the SDK's tracer both start a
 * new root, and its sampler sees no parent), so such a context is worth as much as the empty one.
 */
function carriesNothing(context: ContextLike): boolean {
  const values = MapContext.entriesOf(context);
  if (!values) return false;
  if (values.size === 0) return true;
  if (values.size !== 1 || !values.has(SPAN_KEY)) return false;
  const span = values.get(SPAN_KEY) as SpanLike | undefined;
  try {
    if (typeof span !== 'object' || span === null || span.isRecording()) return false;
    return validSpanIds(span) === undefined;
  } catch {
    return false;
  }
}

interface Storage {
  getStore(): ContextLike | undefined;
  run<T>(store: ContextLike, fn: () => T): T;
}

/** Node's `AsyncLocalStorage`, where `node:async_hooks` is built in; `undefined` elsewhere (a browser). */
function asyncLocalStorage(): Storage | undefined {
  try {
    const hooks = (
      globalThis as { process?: { getBuiltinModule?(id: string): unknown } }
    ).process?.getBuiltinModule?.('node:async_hooks') as
      | { AsyncLocalStorage?: new () => Storage }
      | undefined;
    return hooks?.AsyncLocalStorage ? new hooks.AsyncLocalStorage() : undefined;
  } catch {
    // No async_hooks here: the synchronous manager.
    return undefined;
  }
}

/** A manager that keeps a context active while `fn` runs synchronously, as OpenTelemetry's `StackContextManager`. */
function stackManager(): ContextManagerLike {
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

/**
 * The SDK's own context manager, for when none is registered. Where `node:async_hooks` is built in
 * (Node, and runtimes that provide it), an `AsyncLocalStorage`: the context follows the work across
 * `await`s and timers. Elsewhere (a browser) the context is active while `fn` runs synchronously,
 * as OpenTelemetry's `StackContextManager` does: the SDK enters a span's context again around each
 * call that starts a child, so its own spans nest either way.
 *
 * A context that carries nothing ({@link carriesNothing}: the spans of a tracer that records nothing)
 * is not entered where the active one carries nothing either: `fn` runs as it is, and what it
 * starts sees a context worth the same. The
 * `AsyncLocalStorage` is made when a context is first entered, so a process whose spans all carry
 * nothing never makes one (on Node 20 one in use makes every promise of the process dearer).
 */
export function ownContextManager(): ContextManagerLike {
  let inner: ContextManagerLike | undefined;
  const made = (): ContextManagerLike => {
    if (inner) return inner;
    const storage = asyncLocalStorage();
    inner = storage
      ? { active: () => storage.getStore() ?? ROOT_CONTEXT, with: (context, fn) => storage.run(context, fn) }
      : stackManager();
    return inner;
  };
  return {
    active: () => inner?.active() ?? ROOT_CONTEXT,
    with(context, fn) {
      if (carriesNothing(context) && (!inner || carriesNothing(inner.active()))) return fn();
      return made().with(context, fn);
    },
  };
}
