import { STREAM_HIGH_WATER_MARK, STREAM_LOW_WATER_MARK } from '../defaults.js';
import { raceSignal } from '../internal/race-signal.js';
import { StreamBodyScanner } from './stream-body-scanner.js';
import type { StreamProgress } from './stream-progress.js';
import { type ReadLimit, timedRead } from './timed-read.js';

/** Stream time limits, in ms. */
export interface StreamTimeouts {
  /** Longest wait for the first event once the response headers are in. */
  firstEventTimeoutMs: number;
  /** Longest gap between two chunks of the body. */
  idleTimeoutMs: number;
}

/** What the reader needs from its stream. */
export interface BodyReaderHost {
  timeouts: StreamTimeouts;
  /** Aborts a read in progress (and a pause). */
  signal: AbortSignal;
  /** Events delivered so far (the first-event limit applies until there is one), and the errors that say so. */
  progress: StreamProgress;
  /** The most events any `for await` loop has waiting. */
  queued(): number;
  sessionId(id: string): void;
  /** One raw element of `events`, in order. */
  event(raw: unknown): void;
}

/**
 * Reads a streamed body chunk by chunk into events: each read is bounded by the first-event or
 * idle limit and by the signal, and no chunk is pulled while a `for await` loop has
 * {@link STREAM_HIGH_WATER_MARK} events waiting (reading resumes at {@link STREAM_LOW_WATER_MARK}).
 */
export class BodyReader {
  readonly #host: BodyReaderHost;
  /** Set while reading is paused for a slow `for await` loop. */
  #resume: (() => void) | undefined;

  constructor(host: BodyReaderHost) {
    this.#host = host;
  }

  /** Reads the whole body; resolves once it is complete, rejects when it breaks, times out or aborts. */
  async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const host = this.#host;
    const reader = body.getReader();
    const firstEventDeadline = Date.now() + host.timeouts.firstEventTimeoutMs;
    const raws: unknown[] = [];
    const scanner = new StreamBodyScanner({
      field: (key, value) => {
        if (key === 'sessionId' && typeof value === 'string') host.sessionId(value);
      },
      event: (raw) => raws.push(raw),
    });
    try {
      for (;;) {
        if (host.queued() >= STREAM_HIGH_WATER_MARK) await this.#paused();
        const { done, value } = await timedRead(reader, this.#limit(firstEventDeadline), host.signal);
        try {
          if (done) scanner.end();
          else scanner.write(value);
        } catch (cause) {
          throw host.progress.broken(`The stream body is not valid JSON: ${(cause as Error).message}`, cause);
        }
        if (done) {
          if (!scanner.complete) throw host.progress.broken('The stream ended before the body was complete');
          return;
        }
        for (let i = 0; i < raws.length; i++) host.event(raws[i]);
        raws.length = 0;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  /** A `for await` loop took events: resume reading once every loop is down to the low-water mark. */
  drained(): void {
    if (this.#resume === undefined || this.#host.queued() > STREAM_LOW_WATER_MARK) return;
    const resume = this.#resume;
    this.#resume = undefined;
    resume();
  }

  #paused(): Promise<void> {
    return raceSignal(
      new Promise<void>((resolve) => {
        this.#resume = resolve;
      }),
      this.#host.signal,
    );
  }

  /** The first-event limit until an event arrived, then the idle limit, whichever is shorter. */
  #limit(firstEventDeadline: number): ReadLimit {
    const { firstEventTimeoutMs, idleTimeoutMs } = this.#host.timeouts;
    const untilFirst =
      this.#host.progress.eventCount === 0 ? firstEventDeadline - Date.now() : Number.POSITIVE_INFINITY;
    const firstLimits = untilFirst < idleTimeoutMs;
    return {
      ms: Math.max(0, Math.min(idleTimeoutMs, untilFirst)),
      message: () =>
        `${
          firstLimits
            ? `No stream event within ${firstEventTimeoutMs} ms`
            : `The stream was idle for ${idleTimeoutMs} ms`
        } (${this.#host.progress.received()})`,
    };
  }
}
