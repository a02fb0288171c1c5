/**
 * Aborts `target` when `source` aborts, with its reason, and returns `unlink` to stop listening.
 * The listener also goes once `target` aborts for any reason, so a long-lived `source` (one
 * app-wide signal given to every call) never keeps a finished call alive.
 */
export function forwardAbort(source: AbortSignal | undefined, target: AbortController): () => void {
  if (!source || source.aborted) {
    if (source) target.abort(source.reason);
    return () => {};
  }
  const onAbort = () => target.abort(source.reason);
  const unlink = () => source.removeEventListener('abort', onAbort);
  source.addEventListener('abort', onAbort, { once: true });
  target.signal.addEventListener('abort', unlink, { once: true });
  return unlink;
}

/**
 * {@link forwardAbort} that its owner can let go of early ({@link release}) and take up again
 * ({@link resume}), when the owner still has work to do after all.
 */
export class AbortLink {
  readonly #source: AbortSignal | undefined;
  readonly #target: AbortController;
  #unlink: () => void;
  #released = false;

  constructor(source: AbortSignal | undefined, target: AbortController) {
    this.#source = source;
    this.#target = target;
    this.#unlink = forwardAbort(source, target);
  }

  /** Stops forwarding: the source's listener is removed. */
  release(): void {
    this.#unlink();
    this.#released = true;
  }

  /** Forwards again after {@link release} (at once, when the source aborted meanwhile). */
  resume(): void {
    if (!this.#released) return;
    this.#released = false;
    this.#unlink = forwardAbort(this.#source, this.#target);
  }
}
