/** Where the demo writes: `process.stdout`, or any object with `write` (a test collects the text). */
export interface Output {
  write(text: string): unknown;
}

/** Keeps streamed text and whole lines apart: a line never starts in the middle of streamed text. */
export class Screen {
  readonly #output: Output;
  #midLine = false;

  constructor(output: Output) {
    this.#output = output;
  }

  /** Writes as is (streamed text, a question waiting for its answer on the same line). */
  write(text: string): void {
    if (text === '') return;
    this.#output.write(text);
    this.#midLine = !text.endsWith('\n');
  }

  /** Writes `text` on a line of its own. */
  line(text: string): void {
    if (this.#midLine) this.write('\n');
    this.write(`${text}\n`);
  }

  /** Ends the current line, if one is open. */
  end(): void {
    if (this.#midLine) this.write('\n');
  }
}
