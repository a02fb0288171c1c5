const encoder = new TextEncoder();

/**
 * Writes a streamed reply as it happens: `{"sessionId":"...","events":[` then each event, comma
 * separated, then `]}`. Writes after the end or after the client went away are ignored.
 */
export class StreamWriter {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #count = 0;
  #closed = false;

  /** @param onCancel called when the reader cancels the body (the client went away). */
  constructor(sessionId: string, onCancel: (reason: unknown) => void) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        controller.enqueue(encoder.encode(`{"sessionId":${JSON.stringify(sessionId)},"events":[`));
      },
      cancel: (reason) => {
        this.#closed = true;
        onCancel(reason);
      },
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Appends one event. */
  event(event: Record<string, unknown>): void {
    if (this.#closed) return;
    const text = (this.#count++ === 0 ? '\n' : ',\n') + JSON.stringify(event);
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#closed = true;
    }
  }

  /** Closes the JSON (`]}`) and the body. */
  end(): void {
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
