import { APITimeoutError } from '../errors/index.js';
import { raceSignal } from '../internal/race-signal.js';

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
export async function timedRead(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: ReadLimit,
  signal: AbortSignal,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new APITimeoutError(limit.message())), limit.ms);
  try {
    return await raceSignal(reader.read(), signal, deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}
