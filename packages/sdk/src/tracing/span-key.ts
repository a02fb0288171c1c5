// The context entry of the current span, which every copy of `@opentelemetry/api` 1.x shares
// (`trace.setSpan` writes it, `trace.getSpan` reads it), so that the SDK nests spans in the API's
// contexts without importing it.
export const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
