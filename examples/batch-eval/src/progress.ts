import type { EvalResult } from './evaluate.js';

const BAR_WIDTH = 24;

/** Where progress goes: a terminal gets a bar redrawn in place, anything else one line per prompt. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Shows how far the batch is: `[██████░░░░] 3/6  1 failed` on a terminal, else `[3/6] id: pass (12 ms)`. */
export class Progress {
  readonly #output: ProgressOutput;
  readonly #total: number;
  #done = 0;
  #failed = 0;

  constructor(output: ProgressOutput, total: number) {
    this.#output = output;
    this.#total = total;
    if (this.#tty) this.#draw();
  }

  get #tty(): boolean {
    return this.#output.isTTY === true;
  }

  /** Counts a finished prompt. */
  tick(result: EvalResult): void {
    this.#done++;
    if (result.status !== 'pass') this.#failed++;
    if (this.#tty) this.#draw();
    else
      this.#output.write(
        `[${this.#done}/${this.#total}] ${result.id}: ${result.status} (${result.latencyMs} ms)\n`,
      );
  }

  /** Ends the bar's line. */
  finish(): void {
    if (this.#tty) this.#output.write('\n');
  }

  #draw(): void {
    const filled = this.#total === 0 ? BAR_WIDTH : Math.round((this.#done / this.#total) * BAR_WIDTH);
    const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
    const failed = this.#failed > 0 ? `  ${this.#failed} not passed` : '';
    // \r and "erase to end of line": redraw in place.
    this.#output.write(`\r[${bar}] ${this.#done}/${this.#total}${failed}\x1b[K`);
  }
}
