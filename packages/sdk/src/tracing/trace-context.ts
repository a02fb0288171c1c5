import { registry } from './active-context.js';
import { guardedTracer } from './guarded-tracer.js';
import { ROOT_CONTEXT } from './root-context.js';
import { SPAN_KEY } from './span-key.js';
import type { ContextLike, SpanLike, TracerLike, TracerOption } from './tracer-like.js';

/** The name the SDK's tracer has with `tracer: 'global'`. */
export const TRACER_NAME = '@parley/sdk';

/**
 * `parent` with `span` as its current span: `trace.setSpan(parent, span)`. A parent that is no
 * context (it throws) gives way to an empty one.
 */
export function contextWithSpan(parent: ContextLike, span: SpanLike): ContextLike {
  try {
    return parent.setValue(SPAN_KEY, span);
  } catch {
    return ROOT_CONTEXT.setValue(SPAN_KEY, span);
  }
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
      tracer = provider.getTracer(TRACER_NAME) as TracerLike;
    } catch {
      // A provider that fails to hand out a tracer: nothing is traced.
      return undefined;
    }
    cached = { provider, tracer: guardedTracer(tracer) };
  }
  return cached.tracer;
}
