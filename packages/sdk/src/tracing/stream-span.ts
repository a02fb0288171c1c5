import { endSpan, SPAN_KIND_INTERNAL } from './end-span.js';
import { contextWithSpan, resolveTracer } from './trace-context.js';
import type { ContextLike, SpanLike, TracerOption } from './tracer-like.js';

/**
 * The span of one streamed reply (`parley.messages.stream`), from the request to the reply's end:
 * the time to the first event (`parley.stream.time_to_first_event_ms`, and a
 * `parley.stream.first_event` event at that moment), the events read (`parley.stream.events`),
 * the stop reason, and the error the stream ended with. The request's own span is its child.
 */
export class StreamSpan {
  /** The context whose span is this one: the parent of the request's span. */
  readonly context: ContextLike;
  readonly #span: SpanLike;
  readonly #startedAt = Date.now();
  #ended = false;

  constructor(span: SpanLike, parent: ContextLike | undefined) {
    this.#span = span;
    this.context = contextWithSpan(parent, span);
  }

  /** One event read; `count` counts them, this one included. */
  event(count: number): void {
    if (count !== 1 || !this.#span.isRecording()) return;
    this.#span.setAttribute('parley.stream.time_to_first_event_ms', Date.now() - this.#startedAt);
    this.#span.addEvent('parley.stream.first_event');
  }

  /** The stream is over: its reply arrived (`stopReason`), or it failed with `error`. Only the first call counts. */
  end(events: number, error?: unknown, stopReason?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    endSpan(this.#span, error, { 'parley.stream.events': events, 'parley.stop_reason': stopReason });
  }
}

/** Starts the span of a stream of `sessionId`; `undefined` when `'global'` finds no provider. */
export function startStreamSpan(
  tracerOption: TracerOption,
  sessionId: string,
  parent: ContextLike | undefined,
): StreamSpan | undefined {
  const tracer = resolveTracer(tracerOption);
  if (!tracer) return undefined;
  const span = tracer.startSpan(
    'parley.messages.stream',
    { kind: SPAN_KIND_INTERNAL, attributes: { 'parley.session_id': sessionId } },
    parent,
  );
  return new StreamSpan(span, parent);
}
