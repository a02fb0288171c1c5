import { CLASS_BRAND, ParleyError } from './parley-error.js';

/**
 * A tool handler run by `workerHandler` failed in its worker: it threw (the message is the
 * handler's own, so the model reads the same words as from a handler on the main thread; the
 * original `name` and `stack` are kept in {@link thrown}), or the worker itself failed (its module
 * did not load, an error escaped the handler, it exited before returning a result).
 */
export class ToolWorkerError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolWorkerError';
  override readonly name: string = 'ToolWorkerError';
  /** What the handler threw, as it crossed the thread boundary; `undefined` when the worker itself failed. */
  readonly thrown: { name: string; message: string; stack?: string | undefined } | undefined;
  constructor(message: string, init: { thrown?: ToolWorkerError['thrown']; cause?: unknown } = {}) {
    super(message, { cause: init.cause });
    this.thrown = init.thrown;
  }
}

/**
 * A value could not cross to or from a tool worker: the input, `workerData` or the handler's output
 * is not plain JSON data (a function, a class instance, a Date, a bigint, a cycle...). Structured
 * clone would refuse it or silently drop its prototype, so it is refused up front, naming where.
 */
export class ToolWorkerDataError extends ToolWorkerError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolWorkerDataError';
  override readonly name = 'ToolWorkerDataError' as const;
  /** Where the value went wrong, e.g. `output.rows[2].when`. */
  readonly path: string;
  constructor(message: string, init: { path: string; cause?: unknown }) {
    super(message, { cause: init.cause });
    this.path = init.path;
  }
}

/** A tool handler ran past `workerHandler`'s `timeoutMs`; its worker was stopped. */
export class ToolWorkerTimeoutError extends ToolWorkerError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolWorkerTimeoutError';
  override readonly name = 'ToolWorkerTimeoutError' as const;
  readonly timeoutMs: number;
  constructor(message: string, init: { timeoutMs: number }) {
    super(message);
    this.timeoutMs = init.timeoutMs;
  }
}
