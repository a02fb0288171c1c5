import type { EventPacer, PacedStream } from './event-pacer.js';

const encoder = new TextEncoder();

/**
 * Bytes a streamed body queues for a reader that is slower than the reply; past them
 * {@link StreamWriter.ready} holds the reply back until the reader catches up.
 */
export const STREAM_HIGH_WATER_BYTES = 64 * 1024;

/** Told what a streamed body carries, as it is written (the testing toolkit's journal). */
export interface StreamObserver {
  /** One event written, or the raw text written in place of one. */
  onEvent?: (event: Record<string, unknown> | string) => void;
  /**
   * The body ended: `complete` when its JSON was closed, false when it was cut, dropped or left by
   * the client (also after a close the reader had not read to the end).
   */
  onEnd?: (complete: boolean) => void;
}

/** Options of a {@link StreamWriter}. */
export interface StreamWriterOptions {
  /** Called when the reader cancels the body (the client went away). */
  onCancel: (reason: unknown) => void;
  /** Paces the events (the toolkit's stream faults). */
  pacer?: EventPacer | undefined;
  /** Told each event and the end. */
  observer?: StreamObserver | undefined;
}

/**
 * Writes a streamed reply as it happens: `{"sessionId":"...","events":[` then each event, comma
 * separated, then `]}`. Writes after the end or after the client went away are ignored.
 *
 * The body queues at most about {@link STREAM_HIGH_WATER_BYTES} for its reader: a reply that waits
 * on {@link ready} goes no faster than the client reads, so a long reply over a slow connection
 * neither piles up in memory nor holds the event loop.
 *
 * With an {@link EventPacer}, events are queued and the pacer writes each in its turn (it may wait,
 * write something else, or end the body early with {@link cut} or {@link drop}).
 */
export class StreamWriter implements PacedStream {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #count = 0;
  #closed = false;
  #cancelled = false;
  /** Cut: no more events; the body closes, its JSON open, when the reply ends. */
  #cut = false;
  readonly #onCancel: (reason: unknown) => void;
  readonly #pacer: EventPacer | undefined;
  readonly #observer: StreamObserver | undefined;
  /** Paced mode: the writes waiting for their turn. */
  #queue: Promise<void> = Promise.resolve();
  /** Aborts the pacer's waits when the body ends early. */
  readonly #stopPacing = new AbortController();
  /** Resolves when the reader wants more (or the body ended): see {@link ready} and {@link drop}. */
  #wanted: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(sessionId: string, options: StreamWriterOptions) {
    this.#onCancel = options.onCancel;
    this.#pacer = options.pacer;
    this.#observer = options.observer;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
          controller.enqueue(encoder.encode(`{"sessionId":${JSON.stringify(sessionId)},"events":[`));
        },
        pull: () => {
          this.#release();
        },
        cancel: (reason) => {
          this.#closed = true;
          this.#cancelled = true;
          this.#release();
          this.#stopPacing.abort(reason);
          // Also after `]}` was queued but not yet read: the client did not get it all.
          this.#observer?.onEnd?.(false);
          this.#onCancel(reason);
        },
      },
      { highWaterMark: STREAM_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  get written(): number {
    return this.#count;
  }

  /**
   * Undefined while the body has room (or ended, or a pacer sets the pace); otherwise a promise
   * that resolves once the reader wants more. A reply awaits it between two events.
   */
  ready(): Promise<void> | undefined {
    if (this.#closed || this.#pacer !== undefined || (this.#controller.desiredSize ?? 1) > 0)
      return undefined;
    return this.#whenWanted();
  }

  /** Appends one event (through the pacer, when there is one). */
  event(event: Record<string, unknown>): void {
    const pacer = this.#pacer;
    if (pacer === undefined) this.write(event);
    else
      this.#enqueue(() =>
        this.#closed ? Promise.resolve() : pacer.pace(event, this, this.#stopPacing.signal),
      );
  }

  /** Closes the JSON (`]}`) and the body, after the events queued before. */
  end(): void {
    if (this.#pacer === undefined) this.#end();
    else this.#enqueue(async () => this.#end());
  }

  /**
   * Ends the body with its JSON left open (as {@link cut} and {@link end} together), after the
   * events queued before: a body whose source stopped in the middle (the checking proxy's upstream).
   */
  endOpen(): void {
    const endOpen = () => {
      this.cut();
      this.#end();
    };
    if (this.#pacer === undefined) endOpen();
    else this.#enqueue(async () => endOpen());
  }

  /** Writes one event now, bypassing the pacer. */
  write(event: Record<string, unknown>): void {
    if (this.#closed) return;
    this.#enqueueText((this.#count === 0 ? '\n' : ',\n') + JSON.stringify(event));
    this.#observer?.onEvent?.(event);
  }

  /** Writes raw text in place of an event (it counts as one). */
  writeText(text: string): void {
    if (this.#closed) return;
    this.#enqueueText(`${this.#count === 0 ? '\n' : ',\n'}${text}`);
    this.#observer?.onEvent?.(text);
  }

  /**
   * The body ends here, its JSON left open; the reply goes on (as behind a proxy that cut it). The
   * body closes when the reply ends, so a client that sees the end finds the reply in the
   * conversation.
   */
  cut(): void {
    if (!this.#closed) this.#observer?.onEnd?.(false);
    this.#closed = true;
    this.#cut = true;
    this.#release();
  }

  /**
   * The connection drops: `dropConnection` destroys the socket (otherwise the body errors with
   * `reason`) and the reply aborts.
   */
  async drop(reason: Error, dropConnection?: () => void): Promise<void> {
    if (!this.#closed) this.#observer?.onEnd?.(false);
    this.#closed = true;
    // Erroring a stream discards what it still queues: let the reader take the events first.
    while (!this.#cancelled && (this.#controller.desiredSize ?? 0) < STREAM_HIGH_WATER_BYTES) {
      await this.#whenWanted();
    }
    if (dropConnection !== undefined) dropConnection();
    else {
      try {
        this.#controller.error(reason);
      } catch {
        // Already closed.
      }
    }
    this.#stopPacing.abort(reason);
    this.#onCancel(reason);
  }

  #whenWanted(): Promise<void> {
    if (this.#wanted === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#wanted = { promise, resolve };
    }
    return this.#wanted.promise;
  }

  #release(): void {
    const wanted = this.#wanted;
    this.#wanted = undefined;
    wanted?.resolve();
  }

  #enqueue(step: () => Promise<void>): void {
    this.#queue = this.#queue.then(step).catch(() => {
      // A wait aborted by the client leaving: nothing more to write.
    });
  }

  #enqueueText(text: string): void {
    this.#count++;
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#closed = true;
    }
  }

  #end(): void {
    if (this.#cut) {
      this.#cut = false;
      try {
        this.#controller.close();
      } catch {
        // Already closed.
      }
      return;
    }
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode('\n]}\n'));
      this.#closed = true;
      this.#controller.close();
      this.#observer?.onEnd?.(true);
    } catch {
      this.#closed = true;
    }
  }
}
