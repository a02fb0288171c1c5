import { TimeoutError } from 'ky';
import { ParleyError } from '../errors/index.js';
import { raceSignal } from '../internal/race-signal.js';

/**
 * The token `getToken()` gives for one attempt, within the attempt's time limit (`timeoutMs`: ky's
 * own timeout only starts once its hooks are done) and the request's signal: a `getToken` that
 * never settles cannot hold a request, or a tool call's report, for good. It rejects with a
 * `ParleyError` (`getToken() failed`) carrying what `getToken` threw, ky's `TimeoutError` at the
 * limit (the attempt timed out, as one whose answer is late), or the signal's reason.
 */
export async function requestToken(
  getToken: () => string | Promise<string>,
  request: Request,
  timeoutMs: number,
): Promise<string> {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(new TimeoutError(request)), timeoutMs);
  try {
    return await raceSignal(resolveToken(getToken), request.signal, limit.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function resolveToken(getToken: () => string | Promise<string>): Promise<string> {
  try {
    return await getToken();
  } catch (cause) {
    throw new ParleyError('getToken() failed', { cause });
  }
}
