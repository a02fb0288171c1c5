/**
 * Settles like `promise`, or rejects with the reason of the first of `signals` to abort, whichever
 * comes first. A late rejection of `promise` is handled, never reported as unhandled.
 */
// Hand-written: the platform combines signals (AbortSignal.any) but has no way to race a promise against one.
export function raceSignal<T>(promise: Promise<T>, ...signals: AbortSignal[]): Promise<T> {
  const signal = signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
