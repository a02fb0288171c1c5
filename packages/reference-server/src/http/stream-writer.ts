import { MALFORMED_MARKER, type StreamFault } from '../testing/fault.js';
import type { Clock } from '../time/clock.js';

const encoder = new TextEncoder();

/** A fault to play on the stream (testing toolkit), with what it needs. */
export interface StreamWriterFault {
  fault: StreamFault;
  clock: Clock;
  /** Destroys the real connection (node:http); without it a drop errors the body. */
  dropConnection: (() => void) | undefined;
}

/**
 * Writes a streamed reply as it happens: `{"sessionId":"...","events":[` then each event, comma
 * separated, then `]}`. Writes after the end or after the client went away are ignored.
 *
 * With a fault, events are queued and written by the fault's pace: latency before the first,
 * a delay between two, and the body cut, dropped or made malformed after so many events.
 */
export class StreamWriter {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #count = 0;
  #closed = false;
  readonly #onCancel: (reason: unknown) => void;
  readonly #fault: StreamWriterFault | undefined;
  /** Fault mode: the writes waiting for their turn. */
  #queue: Promise<void> = Promise.resolve();
  readonly #stopSleeps = new AbortController();
  /** Resolves when the reader emptied the queue (see {@link #drop}). */
  #onDrain: (() => void) | undefined;

  /** @param onCancel called when the reader cancels the body (the client went away). */
  constructor(sessionId: string, onCancel: (reason: unknown) => void, fault?: StreamWriterFault) {
    this.#onCancel = onCancel;
    this.#fault = fault;
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
        this.#stopSleeps.abort(reason);
        onCancel(reason);
      },
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Appends one event. */
  event(event: Record<string, unknown>): void {
    if (this.#fault === undefined) this.#write(event);
    else this.#enqueue(() => this.#faultyWrite(event));
  }

  /** Closes the JSON (`]}`) and the body. */
  end(): void {
    if (this.#fault === undefined) this.#end();
    else this.#enqueue(async () => this.#end());
  }

  #enqueue(step: () => Promise<void>): void {
    this.#queue = this.#queue.then(step).catch(() => {
      // A sleep aborted by the client leaving: nothing more to write.
    });
  }

  async #faultyWrite(event: Record<string, unknown>): Promise<void> {
    if (this.#closed || this.#fault === undefined) return;
    const { fault, clock } = this.#fault;
    if (await this.#limitReached(fault)) return;
    const wait = this.#count === 0 ? fault.latencyMs : fault.delayMs;
    if (wait !== undefined && wait > 0) await clock.sleep(wait, this.#stopSleeps.signal);
    if (this.#closed) return;
    if (fault.malformed && this.#count === 0) {
      this.#count++;
      this.#enqueueText(`\n${MALFORMED_MARKER}`);
    } else {
      this.#write(event);
    }
    await this.#limitReached(fault);
  }

  /** Cuts or drops the body once it carries as many events as the fault allows. */
  async #limitReached(fault: StreamFault): Promise<boolean> {
    if (fault.cutAfterEvents !== undefined && this.#count >= fault.cutAfterEvents) this.#cut();
    else if (fault.dropAfterEvents !== undefined && this.#count >= fault.dropAfterEvents) await this.#drop();
    else return false;
    return true;
  }

  #write(event: Record<string, unknown>): void {
    if (this.#closed) return;
    this.#enqueueText((this.#count++ === 0 ? '\n' : ',\n') + JSON.stringify(event));
  }

  #enqueueText(text: string): void {
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

  /** The body ends here, its JSON left open; the reply goes on (as behind a proxy that cut it). */
  #cut(): void {
    this.#closed = true;
    try {
      this.#controller.close();
    } catch {
      // Already closed.
    }
  }

  /** The connection drops: the socket is destroyed (or the body errors) and the reply aborts. */
  async #drop(): Promise<void> {
    this.#closed = true;
    const reason = new TypeError('Injected fault: the connection was dropped');
    // Erroring a stream discards what it still queues: let the reader take the events first.
    if ((this.#controller.desiredSize ?? 1) < 1) {
      await new Promise<void>((resolve) => {
        this.#onDrain = resolve;
      });
    }
    if (this.#fault?.dropConnection !== undefined) this.#fault.dropConnection();
    else {
      try {
        this.#controller.error(reason);
      } catch {
        // Already closed.
      }
    }
    this.#stopSleeps.abort(reason);
    this.#onCancel(reason);
  }
}
