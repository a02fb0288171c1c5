import { ParleyError } from '../errors/parley-error.js';
import { thrownText } from './thrown-text.js';

/** The error a caller gets for a callback of theirs that threw: the thrown value is its `cause`. */
export function callbackError(where: string, callback: string, thrown: unknown): ParleyError {
  return new ParleyError(`${where}: ${callback} threw: ${thrownText(thrown)}`, { cause: thrown });
}

/**
 * Keeps the first failure of the callbacks it guards. A guarded callback never throws (nor
 * rejects) into the code that calls it, so a tool call it observes still runs to its report; the
 * owner throws the failure once its calls are settled ({@link throwIfFailed}).
 */
export class CallbackFailures {
  readonly #where: string;
  #first: ParleyError | undefined;

  constructor(where: string) {
    this.#where = where;
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
    this.#first ??= callbackError(this.#where, name, thrown);
  }

  /** Throws the first failure kept, if any. */
  throwIfFailed(): void {
    if (this.#first) throw this.#first;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
