import type { SpanLike } from './tracer-like.js';

const TRACE_ID = /^[0-9a-f]{32}$/i;
const SPAN_ID = /^[0-9a-f]{16}$/i;
const INVALID_TRACE_ID = '0'.repeat(32);
const INVALID_SPAN_ID = '0'.repeat(16);

/**
 * The ids of `span` (`span.spanContext()`), or `undefined` when they are not valid as the API's
 * `isSpanContextValid` reads them: the API's no-op span and a span that could not start carry
 * all-zero ids, which name no trace.
 */
export function validSpanIds(
  span: SpanLike,
): { traceId: string; spanId: string; traceFlags: number } | undefined {
  const ids = span.spanContext?.();
  if (!ids || !TRACE_ID.test(ids.traceId) || !SPAN_ID.test(ids.spanId)) return undefined;
  if (ids.traceId === INVALID_TRACE_ID || ids.spanId === INVALID_SPAN_ID) return undefined;
  return ids;
}
