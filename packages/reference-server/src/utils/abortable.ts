import type { AbortSource } from './lazy-abort-controller.js';

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  // Hand-written: AbortSignal.any merges signals, but no web API races a promise against one.
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
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

/**
 * {@link abortable} for many promises in a row under one source of aborts (a loop over a model's
 * events): one abort listener for them all instead of one per promise, and nothing left behind per
 * promise (a `Promise.race` against one pending "aborted" promise would pile a reaction on it per
 * call). Call `dispose()` when done.
 */
export function abortRace(source: AbortSource): {
  race<T>(promise: Promise<T>): Promise<T>;
  dispose(): void;
} {
  let rejectCurrent: ((reason: unknown) => void) | undefined;
  const stop = source.onAbort(() => rejectCurrent?.(source.reason));
  return {
    race: <T>(promise: Promise<T>) => {
      if (source.aborted) {
        promise.catch(() => {});
        return Promise.reject(source.reason);
      }
      return new Promise<T>((resolve, reject) => {
        rejectCurrent = reject;
        promise.then(resolve, reject);
      });
    },
    dispose: () => {
      rejectCurrent = undefined;
      stop();
    },
  };
}
