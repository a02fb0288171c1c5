import { ParleyError } from '../errors/parley-error.js';
import { thrownText } from './thrown-text.js';

/** The error a caller gets for a callback of theirs that threw: the thrown value is its `cause`. */
export function callbackError(where: string, callback: string, thrown: unknown): ParleyError {
  return new ParleyError(`${where}: ${callback} threw: ${thrownText(thrown)}`, { cause: thrown });
}

/**
 * Keeps the first failure of the callbacks it guards. A guarded callback never throws (nor
 * rejects) into the code that calls it, so a tool call it observes still runs to its report; the
 * owner throws the failure once its calls are settled ({@link throwIfFailed}). A failure the owner
 * can no longer throw (one after the first, or one after the owner ended, {@link end}: a promise
 * a callback returned rejects once the loop has moved on) is reported with `report`,
 * `console.error` by default: never dropped, never an unhandled rejection.
 */
export class CallbackFailures {
  readonly #where: string;
  readonly #report: (error: ParleyError) => void;
  #first: ParleyError | undefined;
  #ended = false;

  constructor(where: string, report: (error: ParleyError) => void = (error) => console.error(error)) {
    this.#where = where;
    this.#report = report;
  }

  /**
   * `callback`, whose throw or rejection is kept instead of passed on. `before`, the SDK's own
   * observer of the same moment (a span's event), is called first when given.
   */
  guard<A extends unknown[]>(
    name: string,
    callback: ((...args: A) => unknown) | undefined,
    before?: ((...args: A) => void) | undefined,
  ): ((...args: A) => void) | undefined {
    if (!callback) return before;
    return (...args: A) => {
      before?.(...args);
      try {
        const returned = callback(...args);
        if (isThenable(returned))
          Promise.resolve(returned).catch((error: unknown) => this.record(name, error));
      } catch (error) {
        this.record(name, error);
      }
    };
  }

  /** Keeps `thrown` as `name`'s failure, unless one came first. */
  record(name: string, thrown: unknown): void {
    const error = callbackError(this.#where, name, thrown);
    if (!this.#ended && !this.#first) {
      this.#first = error;
      return;
    }
    try {
      this.#report(error);
    } catch {
      // A report that fails loses its line, as every log line of the SDK.
    }
  }

  /** Throws the first failure kept, if any. */
  throwIfFailed(): void {
    if (this.#first) throw this.#first;
  }

  /** The owner is done: a failure from now on is reported, not kept. */
  end(): void {
    this.#ended = true;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
