import { endSpan, SPAN_KIND_INTERNAL } from './end-span.js';
import { ROOT_CONTEXT } from './root-context.js';
import { contextWithSpan, resolveTracer } from './trace-context.js';
import type { ContextLike, SpanLike, TracerOption } from './tracer-like.js';
import { withContext } from './with-context.js';

/** What the span reads of a delivered item: an event (`replyStop` has the stop reason) or `recovered`. */
interface DeliveredItem {
  type: string;
  stopReason?: unknown;
  attempt?: unknown;
}

/**
 * The span of one streamed reply (`parley.messages.stream`), from the request to the reply's end:
 * the time to the first event (`parley.stream.time_to_first_event_ms`, and a
 * `parley.stream.first_event` event at that moment), the events read (`parley.stream.events`),
 * each recovery (a `parley.stream.recovered` event, with the `recover` option), the stop reason,
 * and the error the stream ended with. The stream's requests are its children.
 */
export class StreamSpan {
  /** The context whose span is this one: the parent of the stream's requests. */
  readonly context: ContextLike;
  readonly #span: SpanLike;
  readonly #startedAt = Date.now();
  #events = 0;
  #stopReason: string | undefined;
  #ended = false;

  constructor(span: SpanLike, parent: ContextLike) {
    this.#span = span;
    this.context = contextWithSpan(parent, span);
  }

  /** Runs `fn` with the span's context active: what it starts (a request of the stream) is the span's child. */
  within<T>(fn: () => T): T {
    return withContext(this.context, fn);
  }

  /** An item was delivered. */
  event(item: DeliveredItem): void {
    const span = this.#span;
    if (item.type === 'recovered') {
      if (span.isRecording())
        span.addEvent('parley.stream.recovered', { 'parley.recovery.attempt': Number(item.attempt) });
      return;
    }
    this.#events++;
    if (item.type === 'replyStop') this.#stopReason = String(item.stopReason);
    if (this.#events !== 1 || !span.isRecording()) return;
    span.setAttribute('parley.stream.time_to_first_event_ms', Date.now() - this.#startedAt);
    span.addEvent('parley.stream.first_event');
  }

  /** The stream is over: its reply arrived, or it failed with `failure`. Only the first call counts. */
  end(failure?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    endSpan(this.#span, failure, {
      'parley.stream.events': this.#events,
      'parley.stop_reason': this.#stopReason,
    });
  }
}

/** Starts the span of a stream of `sessionId`, a child of `parent`; `undefined` when `'global'` finds no provider. */
export function startStreamSpan(
  tracerOption: TracerOption,
  sessionId: string,
  active: ContextLike | undefined,
): StreamSpan | undefined {
  const tracer = resolveTracer(tracerOption);
  if (!tracer) return undefined;
  const parent = active ?? ROOT_CONTEXT;
  const span = tracer.startSpan(
    'parley.messages.stream',
    { kind: SPAN_KIND_INTERNAL, attributes: { 'parley.session_id': sessionId } },
    parent,
  );
  return new StreamSpan(span, parent);
}
