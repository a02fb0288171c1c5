import { loadOnce } from '../internal/load-once.js';
import type { StreamSpan } from '../tracing/stream-span.js';
import type { ContextLike, TracerOption } from '../tracing/tracer-like.js';
import type { StreamObserver } from './stream-consumers.js';

/** The code of stream spans, loaded with the first traced stream. */
const loadStreamSpan = loadOnce(() => import('../tracing/stream-span.js'));

/**
 * A stream's span, wired to the stream: `open` loads the tracing code, starts the span (once, a
 * child of `parent`) and sends a request of the stream inside it (the first, and a recovery's
 * resumes); `observer` tells the span of each item and of the end. Items come only after a request
 * was sent, so the span exists by then. Without recovery (`final`), a request that fails ends the
 * span at once: a stream nobody reads would never report its failure.
 */
export function tracedStream(
  tracer: TracerOption,
  sessionId: string,
  parent: ContextLike | undefined,
  final: boolean,
): {
  open<R>(send: () => Promise<R>): Promise<R>;
  observer: StreamObserver;
} {
  let span: StreamSpan | undefined;
  let started: Promise<unknown> | undefined;
  return {
    async open(send) {
      started ??= loadStreamSpan().then(({ startStreamSpan }) => {
        span = startStreamSpan(tracer, sessionId, parent);
      });
      await started;
      try {
        return await (span ? span.within(send) : send());
      } catch (error) {
        if (final) span?.end(error);
        throw error;
      }
    },
    observer: {
      event: (item) => span?.event(item),
      end: (failure) => span?.end(failure),
    },
  };
}
