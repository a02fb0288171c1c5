/**
 * What a recovery attempt did, after reading the session: `use`: the reply had completed on the
 * server (only its end was lost) and is taken from the session; `resume`: the user's turn is
 * stored but not its answer (the interrupted answer was retracted), so it is resumed (a send
 * without content); `resend`: the server answered without storing the user's turn, so it is
 * sent again (the only case the content is sent twice: the first copy provably did not land).
 */
export type RecoveryAction = 'use' | 'resume' | 'resend';

/** One recovery attempt: on `recover.onAttempt`, a stream's `recovered` event, a loop step's `recovery`. */
export interface RecoveryAttempt {
  /** 1 for the first attempt of this reply; at most `maxAttempts`. */
  attempt: number;
  maxAttempts: number;
  /**
   * The failure recovered from: a `StreamError` (model error event, cut or malformed stream), an
   * `APITimeoutError` (first-event or idle timeout), an `APIConnectionError` (dropped
   * connection), an `InternalServerError` (5xx), or a `ConflictError` (`reply_in_progress`) or
   * `RateLimitError` met by an earlier attempt.
   */
  error: Error;
  action: RecoveryAction;
  /** How long the SDK waited before it read the session, in ms. */
  delayMs: number;
}

/**
 * The `recover` option of `client.messages.send`, `client.messages.stream` and `runToolLoop`: when
 * a reply fails after its request was sent, read the session to learn what landed, then use the
 * completed reply or resume, with backoff. `true` takes every default. An attempt's reads are
 * tried once (the client's `maxRetries` does not apply to them): the next attempt is their retry.
 */
export interface RecoverOptions {
  /**
   * Most recovery attempts of one reply (each: wait, read the session once, then use, resume or
   * resend). Default 3.
   */
  maxAttempts?: number | undefined;
  /**
   * The wait before attempt `attempt` (1 for the first), in ms. Default: the retries' backoff
   * (`defaults.retry`: 500 ms doubling to 8 s, less up to 25 % jitter).
   */
  backoff?: ((attempt: number) => number) | undefined;
  /** Called for each attempt, once the SDK knows what it does (show "retrying" here). */
  onAttempt?: ((attempt: RecoveryAttempt) => void) | undefined;
  /**
   * The highest message index of the conversation before this send, when you know it (the last
   * index of the previous reply). Without it the SDK reads the session once before sending, to
   * tell the messages this call stores from older ones. `runToolLoop` passes it for its resumes.
   */
  lastIndex?: number | undefined;
}
