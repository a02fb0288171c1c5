import type { EventPacer, PacedStream } from './event-pacer.js';

const encoder = new TextEncoder();

/**
 * Writes a streamed reply as it happens: `{"sessionId":"...","events":[` then each event, comma
 * separated, then `]}`. Writes after the end or after the client went away are ignored.
 *
 * With an {@link EventPacer}, events are queued and the pacer writes each in its turn (it may wait,
 * write something else, or end the body early with {@link cut} or {@link drop}).
 */
export class StreamWriter implements PacedStream {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #count = 0;
  #closed = false;
  readonly #onCancel: (reason: unknown) => void;
  readonly #pacer: EventPacer | undefined;
  /** Paced mode: the writes waiting for their turn. */
  #queue: Promise<void> = Promise.resolve();
  /** Aborts the pacer's waits when the body ends early. */
  readonly #stopPacing = new AbortController();
  /** Resolves when the reader emptied the queue (see {@link drop}). */
  #onDrain: (() => void) | undefined;

  /** @param onCancel called when the reader cancels the body (the client went away). */
  constructor(sessionId: string, onCancel: (reason: unknown) => void, pacer?: EventPacer) {
    this.#onCancel = onCancel;
    this.#pacer = pacer;
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        controller.enqueue(encoder.encode(`{"sessionId":${JSON.stringify(sessionId)},"events":[`));
      },
      pull: () => {
        this.#onDrain?.();
      },
      cancel: (reason) => {
        this.#closed = true;
        this.#stopPacing.abort(reason);
        onCancel(reason);
      },
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  get written(): number {
    return this.#count;
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

  /** Writes one event now, bypassing the pacer. */
  write(event: Record<string, unknown>): void {
    if (this.#closed) return;
    this.#enqueueText((this.#count === 0 ? '\n' : ',\n') + JSON.stringify(event));
  }

  /** Writes raw text in place of an event (it counts as one). */
  writeText(text: string): void {
    if (this.#closed) return;
    this.#enqueueText(`${this.#count === 0 ? '\n' : ',\n'}${text}`);
  }

  /** The body ends here, its JSON left open; the reply goes on (as behind a proxy that cut it). */
  cut(): void {
    this.#closed = true;
    try {
      this.#controller.close();
    } catch {
      // Already closed.
    }
  }

  /**
   * The connection drops: `dropConnection` destroys the socket (otherwise the body errors with
   * `reason`) and the reply aborts.
   */
  async drop(reason: Error, dropConnection?: () => void): Promise<void> {
    this.#closed = true;
    // Erroring a stream discards what it still queues: let the reader take the events first.
    if ((this.#controller.desiredSize ?? 1) < 1) {
      await new Promise<void>((resolve) => {
        this.#onDrain = resolve;
      });
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
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode('\n]}\n'));
      this.#closed = true;
      this.#controller.close();
    } catch {
      this.#closed = true;
    }
  }
}
