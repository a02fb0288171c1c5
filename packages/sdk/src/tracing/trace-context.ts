import { guardedTracer } from './guarded-tracer.js';
import type { ContextLike, SpanLike, TracerLike, TracerOption } from './tracer-like.js';

// Two keys every copy of `@opentelemetry/api` 1.x shares, so that copies bundled by different
// packages see one registered provider and one span per context: the global registry
// (`{ version, trace, context, ... }`) and the context entry of the current span. Reading them lets
// the SDK nest spans and use the global tracer without importing the API.
const API_KEY = Symbol.for('opentelemetry.js.api.1');
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** The name the SDK's tracer has with `tracer: 'global'`. */
export const TRACER_NAME = '@parley/sdk';

interface Registry {
  trace?: { getTracer(name: string): TracerLike };
  context?: { active(): ContextLike };
}

function registry(): Registry | undefined {
  return (globalThis as Record<symbol, Registry | undefined>)[API_KEY];
}

/** A context of its own, for when no context manager is registered (the API's `ROOT_CONTEXT` is one too). */
class MapContext implements ContextLike {
  readonly #values: Map<symbol, unknown>;
  constructor(values = new Map<symbol, unknown>()) {
    this.#values = values;
  }
  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }
  setValue(key: symbol, value: unknown): ContextLike {
    return new MapContext(new Map(this.#values).set(key, value));
  }
  deleteValue(key: symbol): ContextLike {
    const values = new Map(this.#values);
    values.delete(key);
    return new MapContext(values);
  }
}

const ROOT = new MapContext();

/** The active context of the registered context manager (`context.active()`), else an empty one. */
export function activeContext(): ContextLike {
  return registry()?.context?.active() ?? ROOT;
}

/** `parent` (default: the active context) with `span` as its current span: `trace.setSpan(parent, span)`. */
export function contextWithSpan(parent: ContextLike | undefined, span: SpanLike): ContextLike {
  return (parent ?? activeContext()).setValue(SPAN_KEY, span);
}

/** The span a context carries: `trace.getSpan(context)`. */
export function spanOf(context: ContextLike): unknown {
  return context.getValue(SPAN_KEY);
}

let cached: { provider: object; tracer: TracerLike } | undefined;

/**
 * The tracer spans start on: the given one, or with `'global'` the registered provider's tracer,
 * looked up each time (a provider registered after the client was made counts); `undefined` when
 * none is registered, and then nothing is traced. What the tracer or its spans throw is dropped
 * ({@link guardedTracer}).
 */
export function resolveTracer(option: TracerOption): TracerLike | undefined {
  if (option !== 'global') return guardedTracer(option);
  const provider = registry()?.trace;
  if (!provider) return undefined;
  if (cached?.provider !== provider) {
    let tracer: TracerLike | undefined;
    try {
      tracer = provider.getTracer(TRACER_NAME);
    } catch {
      // A provider that fails to hand out a tracer: nothing is traced.
      return undefined;
    }
    cached = { provider, tracer: guardedTracer(tracer) };
  }
  return cached.tracer;
}
