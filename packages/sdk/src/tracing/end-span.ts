import type { AttributesLike, SpanLike } from './tracer-like.js';

/** `SpanKind.INTERNAL` and `SpanKind.CLIENT` of `@opentelemetry/api`. */
export const SPAN_KIND_INTERNAL = 0;
export const SPAN_KIND_CLIENT = 2;
/** `SpanStatusCode.ERROR`. */
const STATUS_ERROR = 2;

/** `error.type` of the semantic conventions: the error's class name (`APITimeoutError`, ...), else `_OTHER`. */
export function errorType(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}

/**
 * Ends `span`; with `error`, first records it as the conventions say: an `exception` event,
 * `error.type` (the class name unless `type` is given, e.g. an HTTP status) and status ERROR with
 * the error's message. A span that records nothing is only ended.
 */
export function endSpan(span: SpanLike, error?: unknown, attributes?: AttributesLike, type?: string): void {
  if (span.isRecording()) {
    if (attributes) span.setAttributes(attributes);
    if (error !== undefined) {
      const message = error instanceof Error ? error.message : String(error);
      span.recordException(error instanceof Error ? error : message);
      span.setAttribute('error.type', type ?? errorType(error));
      span.setStatus({ code: STATUS_ERROR, message });
    }
  }
  span.end();
}
