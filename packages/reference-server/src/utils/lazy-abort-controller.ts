/** What a source of aborts tells: whether and why it aborted, and who to call when it does. */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Calls `listener` once when it aborts; returns a function that stops that. */
  onAbort(listener: () => void): () => void;
}

/**
 * An `AbortController` whose `AbortSignal` is made only when someone asks for `signal`: making one
 * costs several microseconds on Node 20, and most replies are never aborted and hand their signal
 * to nobody (the built-in models read `aborted` through {@link AbortSource}).
 *
 * Hand-written: no web API makes a signal on demand.
 */
export class LazyAbortController implements AbortSource {
  #controller: AbortController | undefined = undefined;
  #aborted = false;
  #reason: unknown = undefined;
  #listeners: Array<() => void> | undefined = undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** A real `AbortSignal`, made on first use (aborted at once if this already is). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts with `reason` (an `AbortError` by default), like `AbortController.abort`; once only. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    this.#controller?.abort(this.#reason);
    for (const listener of listeners ?? []) listener();
  }

  onAbort(listener: () => void): () => void {
    if (this.#aborted) return () => {};
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.#listeners?.splice(at, 1);
    };
  }
}
