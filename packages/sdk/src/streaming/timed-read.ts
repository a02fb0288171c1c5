import { APITimeoutError } from '../errors/index.js';

/** How long one read may wait, and what its timeout error says. */
export interface ReadLimit {
  ms: number;
  /** The message of the {@link APITimeoutError} when the limit passes. */
  message: () => string;
}

/**
 * Reads one chunk, rejecting with an {@link APITimeoutError} when `limit` passes first and with
 * `signal.reason` when `signal` aborts first. The timer runs on `setTimeout` (fake timers drive it).
 */
export function timedRead(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: ReadLimit,
  signal: AbortSignal,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      cleanup();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new APITimeoutError(limit.message()));
    }, limit.ms);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    reader.read().then(
      (result) => {
        cleanup();
        resolve(result);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}
