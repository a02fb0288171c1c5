// The parts of OpenTelemetry's tracing API the SDK calls, written out structurally: a `Tracer` from
// `@opentelemetry/api` fits them, and the SDK's types never name that package, so an app that does
// not install it compiles and bundles without it.

/** A span attribute's value (`@opentelemetry/api`'s `AttributeValue` fits). */
export type AttributeValueLike = string | number | boolean | string[] | number[] | boolean[];

/** Span attributes (`@opentelemetry/api`'s `Attributes` fits). */
export type AttributesLike = Record<string, AttributeValueLike | undefined>;

/**
 * An OpenTelemetry `Context`: an immutable map a span's parent travels in (`context.active()`, or
 * `trace.setSpan(context.active(), span)` from `@opentelemetry/api`).
 */
export interface ContextLike {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): ContextLike;
  deleteValue(key: symbol): ContextLike;
}

/** The options the SDK passes to `startSpan` (`kind`: 0 internal, 2 client). */
export interface SpanOptionsLike {
  kind?: number;
  attributes?: AttributesLike;
}

/** The methods of an OpenTelemetry `Span` the SDK calls. */
export interface SpanLike {
  setAttribute(key: string, value: AttributeValueLike): unknown;
  setAttributes(attributes: AttributesLike): unknown;
  addEvent(name: string, attributes?: AttributesLike): unknown;
  /** `code`: 0 unset, 1 ok, 2 error. */
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  end(): unknown;
  /** False for a span that records nothing (the API's no-op tracer): the SDK then skips its attributes. */
  isRecording(): boolean;
  /** The span's ids, for the `traceparent` header of its request (W3C Trace Context). */
  spanContext?(): { traceId: string; spanId: string; traceFlags: number };
}

/**
 * An OpenTelemetry `Tracer`: `trace.getTracer('my-app')` from `@opentelemetry/api`, or any object
 * with its `startSpan`. The SDK passes each span's parent as the third argument.
 */
export interface TracerLike {
  startSpan(name: string, options?: SpanOptionsLike, context?: ContextLike): SpanLike;
}

/**
 * The `tracer` option: a tracer, or `'global'` for the tracer of the provider registered with
 * `@opentelemetry/api` (`trace.setGlobalTracerProvider`, or an OpenTelemetry SDK's `register()`),
 * looked up when each span starts, without importing the API.
 */
export type TracerOption = TracerLike | 'global';
