import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** Attributes worth a glance on one line; the console exporter prints them all. */
const SHOWN = [
  'http.response.status_code',
  'http.request.resend_count',
  'parley.request_id',
  'parley.stream.events',
  'parley.stream.time_to_first_event_ms',
  'parley.stop_reason',
  'parley.tool.status',
  'parley.tool_loop.status',
  'error.type',
];

function durationMs(span: ReadableSpan): number {
  const [seconds, nanos] = span.duration;
  return seconds * 1000 + nanos / 1e6;
}

/** Attributes that are times: left out with `times: false`, like the durations. */
const TIMES = new Set(['parley.stream.time_to_first_event_ms']);

/**
 * The spans of one trace as an indented tree, children in the order they started: name, duration,
 * a few attributes, and the names of the span's events. `times: false` leaves out what the clock
 * decides (durations, the time to the first event), for output that a test can compare.
 */
export function spanTree(spans: readonly ReadableSpan[], options: { times?: boolean } = {}): string {
  const times = options.times !== false;
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const started = [...spans].sort(
    (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
  );
  const lines: string[] = [];
  const visit = (span: ReadableSpan, depth: number) => {
    const shown = SHOWN.filter((key) => span.attributes[key] !== undefined && (times || !TIMES.has(key))).map(
      (key) => `${key}=${String(span.attributes[key])}`,
    );
    const events = span.events.map((e) => e.name).filter((name) => name !== 'exception');
    lines.push(
      `${'  '.repeat(depth)}${span.name}` +
        (times ? ` (${durationMs(span).toFixed(1)} ms)` : '') +
        (shown.length > 0 ? `  ${shown.join(' ')}` : '') +
        (events.length > 0 ? `  events: ${events.join(', ')}` : ''),
    );
    const id = span.spanContext().spanId;
    for (const child of started.filter((s) => s.parentSpanContext?.spanId === id)) visit(child, depth + 1);
  };
  for (const root of started.filter((s) => !s.parentSpanContext || !ids.has(s.parentSpanContext.spanId))) {
    visit(root, 0);
  }
  return lines.join('\n');
}
