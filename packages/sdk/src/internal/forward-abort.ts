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
