import { ToolTimeoutError } from '../../errors/tool-timeout-error.js';

/**
 * A handler's time limit on the main thread: {@link signal} (part of the handler's `ctx.signal`)
 * aborts with a `ToolTimeoutError` once {@link start} was called `timeoutMs` ago.
 */
export class TimeLimit {
  readonly #controller = new AbortController();
  readonly #toolName: string;
  readonly #timeoutMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(toolName: string, timeoutMs: number) {
    this.#toolName = toolName;
    this.#timeoutMs = timeoutMs;
  }

  /** Aborted, with a `ToolTimeoutError`, at the limit. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Starts counting: the handler starts now (after any approval). */
  start(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.#controller.abort(new ToolTimeoutError(this.#toolName, this.#timeoutMs)),
      this.#timeoutMs,
    );
  }

  /** Stops counting: the handler settled. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}
