import { ToolTimeoutError } from '../../errors/tool-timeout-error.js';

/**
 * A handler's time limit on the main thread: {@link signal} (part of the handler's `ctx.signal`)
 * aborts with a `ToolTimeoutError` once {@link start} was called `timeoutMs` ago, or at `endBy`
 * (this machine's clock) when that comes first: a call's limit never outlives its deadline.
 */
export class TimeLimit {
  readonly #controller = new AbortController();
  readonly #toolName: string;
  readonly #timeoutMs: number;
  readonly #endBy: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(toolName: string, timeoutMs: number, endBy?: number) {
    this.#toolName = toolName;
    this.#timeoutMs = timeoutMs;
    this.#endBy = endBy;
  }

  /** Aborted, with a `ToolTimeoutError`, at the limit. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Starts counting: the handler starts now (after any approval). */
  start(): void {
    clearTimeout(this.#timer);
    const ms =
      this.#endBy === undefined
        ? this.#timeoutMs
        : Math.max(0, Math.min(this.#timeoutMs, Math.round(this.#endBy - Date.now())));
    this.#timer = setTimeout(() => this.#controller.abort(new ToolTimeoutError(this.#toolName, ms)), ms);
  }

  /** Stops counting: the handler settled. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}
