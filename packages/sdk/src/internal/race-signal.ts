/**
 * Settles like `promise`, or rejects with the reason of the first of `signals` to abort, whichever
 * comes first. A late rejection of `promise` is handled, never reported as unhandled.
 */
// Hand-written: the platform combines signals (AbortSignal.any) but has no way to race a promise
// against one. Each signal gets its own listener, removed when the race is over (cheaper than
// combining them first).
export function raceSignal<T>(promise: Promise<T>, ...signals: AbortSignal[]): Promise<T> {
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted) {
    promise.catch(() => {});
    return Promise.reject(aborted.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const listeners = signals.map((signal) => {
      const onAbort = () => {
        promise.catch(() => {});
        done();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      return () => signal.removeEventListener('abort', onAbort);
    });
    const done = () => {
      for (const remove of listeners) remove();
    };
    promise.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
