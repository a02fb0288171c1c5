import type { OpenResponse } from '../core/http-client.js';
import { loadTracingHelpers } from '../tracing/load-tracing-helpers.js';
import type { StreamSpan } from '../tracing/stream-span.js';
import type { ContextLike, TracerOption } from '../tracing/tracer-like.js';
import type { StreamObserver } from './stream-progress.js';

/**
 * A stream's span, wired to the stream: `open` loads the tracing code, starts the span and sends
 * the request as its child; `observer` tells the span of each event and of the end. Events come
 * only after `open` resolved, so the span exists by then.
 */
export function tracedStream(
  tracer: TracerOption,
  sessionId: string,
  parent: ContextLike | undefined,
  open: (signal: AbortSignal, traceContext: ContextLike | undefined) => Promise<OpenResponse>,
): { open: (signal: AbortSignal) => Promise<OpenResponse>; observer: StreamObserver } {
  let span: StreamSpan | undefined;
  return {
    open: async (signal) => {
      const { startStreamSpan } = await loadTracingHelpers();
      span = startStreamSpan(tracer, sessionId, parent);
      try {
        return await open(signal, span?.context ?? parent);
      } catch (error) {
        // Ended now: a stream nobody reads would never report its failure.
        span?.end(0, error);
        throw error;
      }
    },
    observer: {
      event: (count) => span?.event(count),
      end: (events, error, stopReason) => span?.end(events, error, stopReason),
    },
  };
}
