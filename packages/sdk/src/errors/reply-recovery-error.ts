import { CLASS_BRAND, ParleyError } from './parley-error.js';

/**
 * A reply that failed after its request was sent could not be recovered with the `recover`
 * option: every attempt was used, the service refused a recovery request (a 404 for a deleted
 * session, ...), or the user message was not stored and the request got no answer (it may still
 * be on its way, so it is not sent again). `cause` is the failure that ended the recovery.
 */
export class ReplyRecoveryError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ReplyRecoveryError';
  override readonly name = 'ReplyRecoveryError' as const;
  readonly sessionId: string;
  /** Recovery attempts made (at most the option's `maxAttempts`). */
  readonly attempts: number;
  constructor(message: string, init: { sessionId: string; attempts: number; cause: unknown }) {
    const why = init.cause instanceof Error ? `: ${init.cause.message}` : '';
    super(`Session ${init.sessionId}: ${message}${why}`, { cause: init.cause });
    this.sessionId = init.sessionId;
    this.attempts = init.attempts;
  }
}
