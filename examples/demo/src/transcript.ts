import { styleText } from 'node:util';

/** Where the demo writes: `process.stdout`, or any object with `write` (a test collects the text). */
export interface Output {
  write(text: string): unknown;
  /** Colours are used only on a terminal. */
  isTTY?: boolean;
}

type Style = 'bold' | 'dim' | 'cyan' | 'green' | 'magenta' | 'red' | 'yellow';

/** Writes the conversation as `speaker › text` lines, coloured on a terminal (unless `NO_COLOR`). */
export class Transcript {
  readonly #output: Output;
  readonly #color: boolean;

  constructor(output: Output) {
    this.#output = output;
    this.#color = output.isTTY === true && !process.env.NO_COLOR;
  }

  style(style: Style, text: string): string {
    return this.#color ? styleText(style, text) : text;
  }

  /** Starts a `speaker › ` line without ending it (streamed text follows). */
  speaker(name: 'you' | 'assistant' | 'tool', style: Style): void {
    this.write(this.style(style, `${name} › `));
  }

  write(text: string): void {
    this.#output.write(text);
  }

  line(text = ''): void {
    this.#output.write(`${text}\n`);
  }
}
