import type { SpanLike, TracerLike } from './tracer-like.js';

const guarded = new WeakMap<TracerLike, TracerLike>();

/** A span for when the tracer failed to start one: it records nothing. */
const NO_SPAN: SpanLike = {
  setAttribute: () => NO_SPAN,
  setAttributes: () => NO_SPAN,
  addEvent: () => NO_SPAN,
  setStatus: () => NO_SPAN,
  recordException: () => undefined,
  end: () => undefined,
  isRecording: () => false,
};

/**
 * `tracer`, such that nothing it or its spans throw reaches the SDK: tracing observes a call and
 * never changes it (a tracer that throws would otherwise fail a tool call's heartbeat or report,
 * and leave the call open). A span that could not start records nothing. Spans are wrapped in a
 * `Proxy`, so the tracer's own code still finds every member of a parent span it is handed back.
 */
export function guardedTracer(tracer: TracerLike): TracerLike {
  let guard = guarded.get(tracer);
  if (!guard) {
    guard = {
      startSpan(name, options, context) {
        try {
          return guardedSpan(tracer.startSpan(name, options, context));
        } catch {
          return NO_SPAN;
        }
      },
    };
    guarded.set(tracer, guard);
  }
  return guard;
}

function guardedSpan(span: SpanLike): SpanLike {
  if (typeof span !== 'object' || span === null) return NO_SPAN;
  return new Proxy(span, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          return value.apply(target, args);
        } catch {
          return key === 'isRecording' ? false : undefined;
        }
      };
    },
  });
}
