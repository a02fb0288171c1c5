/**
 * A signal that aborts when any of `signals` does (with its reason), and `unlink()` to stop
 * listening once it is no longer needed. Hand-written rather than AbortSignal.any: the platform's
 * keeps weak references to every source for the signal's lifetime, which made it the costliest
 * step of a short tool call (and work for the garbage collector on every request).
 */
export function linkedSignal(...signals: AbortSignal[]): { signal: AbortSignal; unlink: () => void } {
  const controller = new AbortController();
  const aborted = signals.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  const listeners = signals.map((source) => {
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  const unlink = () => {
    for (const remove of listeners) remove();
  };
  return { signal: controller.signal, unlink };
}
