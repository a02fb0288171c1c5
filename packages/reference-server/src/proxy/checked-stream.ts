import type { EventPacer } from '../http/event-pacer.js';
import { type StreamObserver, StreamWriter } from '../http/stream-writer.js';
import type { Clock } from '../time/clock.js';
import type { ChunkReader } from './secret-redactor.js';
import { startDeadline } from './start-deadline.js';
import type { StreamChecker } from './stream-checker.js';

/** How a streamed body ended, as the exchange tells it. */
export type StreamEnd = 'complete' | 'cut' | 'aborted';

/** What a checked stream is told and tells. */
export interface CheckedStreamOptions {
  /** Told each chunk and the end; a body too long to check gets one that checks nothing. */
  checker: Pick<StreamChecker, 'write' | 'end' | 'complete'>;
  /** The body ended: all of it passed, the upstream stopped early, or the client left. */
  onEnd(end: StreamEnd): void;
  /** The client left: stop the upstream request. */
  abortUpstream(reason: unknown): void;
  /** The longest wait for the upstream's next chunk; past it the body is cut (failed) and `onTimeout` told. */
  idle: { clock: Clock; ms: number; onTimeout(): void };
  /**
   * Destroys the client's connection (node:http), so that an upstream failing mid-body fails the
   * client's body the same way; without it the body errors.
   */
  dropConnection: (() => void) | undefined;
}

/** The upstream sent nothing for the idle timeout. */
class UpstreamIdleError extends Error {
  override name = 'UpstreamIdleError';
}

/** The next chunk of `reader`, or an {@link UpstreamIdleError} after `idle.ms` of the clock. */
function readWithin(
  reader: ChunkReader,
  idle: CheckedStreamOptions['idle'],
): Promise<ReadableStreamReadResult<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const stop = startDeadline(idle.clock, idle.ms, () =>
      reject(new UpstreamIdleError(`The upstream sent nothing for ${idle.ms} ms`)),
    );
    reader.read().then(
      (result) => {
        stop();
        resolve(result);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/** The upstream body's reader, and what its first read gave (the proxy answers once it has it). */
export interface UpstreamBody {
  reader: ChunkReader;
  first: ReadableStreamReadResult<Uint8Array>;
}

/**
 * The upstream's streamed body, passed on chunk by chunk as it arrives, each chunk checked on the
 * way: the client gets the upstream's bytes as they were sent. A chunk is read from the upstream
 * only when the client wants one (no queue of its own), so a slow client slows the upstream read.
 * An upstream that fails mid-body fails the client's body the same way.
 */
export function checkedStream(
  upstream: UpstreamBody,
  options: CheckedStreamOptions,
): ReadableStream<Uint8Array> {
  const { reader } = upstream;
  let first: ReadableStreamReadResult<Uint8Array> | undefined = upstream.first;
  const { checker } = options;
  let ended = false;
  /** `checked`: the upstream ended the body itself (not the proxy's timeout), so its end is checked. */
  const end = (how: StreamEnd, checked = true) => {
    if (ended) return;
    ended = true;
    if (how !== 'aborted' && checked) checker.end();
    options.onEnd(how === 'aborted' || (checked && checker.complete) ? how : 'cut');
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = first ?? (await readWithin(reader, options.idle));
          first = undefined;
        } catch (error) {
          const idle = error instanceof UpstreamIdleError;
          end('cut', !idle);
          if (idle) {
            options.idle.onTimeout();
            options.abortUpstream(error);
            reader.cancel(error).catch(() => {});
          }
          // The node adapter would write an error text into the body: the connection goes instead.
          if (options.dropConnection !== undefined) options.dropConnection();
          else controller.error(error);
          return;
        }
        if (result.done) {
          end('complete');
          controller.close();
          return;
        }
        checker.write(result.value);
        controller.enqueue(result.value);
      },
      cancel(reason) {
        end('aborted');
        options.abortUpstream(reason);
        reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

/** What a paced stream is told besides {@link CheckedStreamOptions}. */
export interface PacedStreamOptions extends CheckedStreamOptions {
  checker: StreamChecker;
  sessionId: string;
  pacer: EventPacer;
  /** Each event the checker parsed from the upstream body is queued here by the caller. */
  events: Array<Record<string, unknown>>;
  /** Told the events as written and how the body ended (the journal). */
  observer: StreamObserver | undefined;
}

/**
 * A streamed body under a stream fault (latency, delay, cut, drop, malformed): the upstream's events
 * written again through the fault's pacer, as the reference server writes its own replies. Its
 * bytes are the events the upstream sent, framed by the server (the fault changes the body anyway).
 */
export function pacedStream(upstream: UpstreamBody, options: PacedStreamOptions): ReadableStream<Uint8Array> {
  const { checker, events } = options;
  let ended = false;
  const { reader } = upstream;
  let first: ReadableStreamReadResult<Uint8Array> | undefined = upstream.first;
  const writer = new StreamWriter(options.sessionId, {
    pacer: options.pacer,
    observer: options.observer,
    onCancel: (reason) => {
      if (!ended) {
        ended = true;
        options.onEnd('aborted');
      }
      options.abortUpstream(reason);
      reader.cancel(reason).catch(() => {});
    },
  });
  const pump = async () => {
    let idle = false;
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = first ?? (await readWithin(reader, options.idle));
        first = undefined;
      } catch (error) {
        if (error instanceof UpstreamIdleError) {
          idle = true;
          options.idle.onTimeout();
          options.abortUpstream(error);
          reader.cancel(error).catch(() => {});
        }
        break;
      }
      if (result.done) break;
      checker.write(result.value);
      for (const event of events.splice(0)) writer.event(event);
    }
    if (ended) return;
    ended = true;
    if (!idle) checker.end();
    for (const event of events.splice(0)) writer.event(event);
    const complete = !idle && checker.complete;
    if (complete) writer.end();
    else writer.endOpen();
    options.onEnd(complete ? 'complete' : 'cut');
  };
  void pump();
  return writer.stream;
}
