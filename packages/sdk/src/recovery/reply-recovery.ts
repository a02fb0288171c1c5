import type { WithResponse } from '../core/api-promise.js';
import { DEFAULT_RECOVER_MAX_ATTEMPTS } from '../defaults.js';
import { APIUserAbortError, ReplyRecoveryError } from '../errors/index.js';
import { callbackError } from '../internal/callback-failures.js';
import { raceSignal } from '../internal/race-signal.js';
import { MAX_TIMER_MS } from '../internal/timer-delay.js';
import { describeValue, wrongValue } from '../internal/wrong-value.js';
import type { Message, MessageReply, PendingTool, SendMessageRequest } from '../wire/index.js';
import type { RecoverOptions, RecoveryAction, RecoveryAttempt } from './recover-options.js';
import { answered, isRecoverable, isUserAbort, retryAfterMs } from './recoverable.js';
import type { RecoveryCall, RecoveryClient } from './recovery-call.js';
import { isClientTurn, lastIndexOf, SessionView, toolUsesOf } from './session-view.js';

/** What to do next: the reply taken from the session, or a request to send (`{}` resumes). */
export type RecoveryStep =
  | { attempt: RecoveryAttempt; reply: WithResponse<MessageReply> }
  | { attempt: RecoveryAttempt; body: SendMessageRequest };

type Plan =
  | { action: RecoveryAction; reply: WithResponse<MessageReply> }
  | { action: RecoveryAction; body: SendMessageRequest };

/**
 * One reply's recovery: where the conversation stood before the send, the attempts made so far,
 * and, after each failure, what the session shows. The messages this call stored are those with
 * an index above {@link ReplyRecovery.prepare}'s last index: indexes are never reused.
 *
 * Its reads are tried once per attempt (the client does not retry them): a read that fails is
 * the attempt's failure, and the next attempt, after its backoff, is the retry. One policy, the
 * `recover` option's: at most `maxAttempts` reads of the session after a failure.
 */
export class ReplyRecovery {
  readonly #view: SessionView;
  readonly #sessionId: string;
  readonly #content: SendMessageRequest['content'];
  readonly #maxAttempts: number;
  /** `recover.backoff`, the caller's own code. */
  readonly #backoff: ((attempt: number) => number) | undefined;
  /** The retries' backoff, when the caller gave none. */
  readonly #retryBackoff: (attempt: number) => number;
  readonly #onAttempt: ((attempt: RecoveryAttempt) => void) | undefined;
  #lastIndex: number | undefined;
  #attempts = 0;
  /** The messages of this call that landed before the request now running (after a resume). */
  #landed: Message[] = [];

  constructor(client: RecoveryClient, call: RecoveryCall) {
    const recover: RecoverOptions = call.recover === true ? {} : call.recover;
    const { maxAttempts = DEFAULT_RECOVER_MAX_ATTEMPTS, lastIndex } = recover;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
      throw new RangeError(`recover.maxAttempts must be an integer >= 1, got ${describeValue(maxAttempts)}`);
    }
    if (lastIndex !== undefined && !Number.isInteger(lastIndex)) {
      throw new RangeError(`recover.lastIndex must be an integer message index, got ${lastIndex}`);
    }
    this.#view = new SessionView(client, call);
    this.#sessionId = call.sessionId;
    this.#content = call.body.content;
    this.#maxAttempts = maxAttempts;
    this.#backoff = recover.backoff;
    this.#retryBackoff = client.backoff;
    this.#onAttempt = recover.onAttempt;
    this.#lastIndex = lastIndex;
  }

  /**
   * Before the first request: learns where the conversation ends, unless the caller said. Nothing
   * failed yet, so this read is retried as any read.
   */
  async prepare(signal: AbortSignal | undefined): Promise<void> {
    if (this.#lastIndex !== undefined) return;
    this.#lastIndex = lastIndexOf((await this.#view.messages(signal, false)).data);
  }

  /**
   * After `failure` (of the first request or of an attempt): waits, reads the session and says
   * what to do. Throws `failure` itself when it is not one to recover from (before any attempt),
   * else a {@link ReplyRecoveryError} once attempts run out or the session refuses a read.
   * `headers` is true when the failed request's response headers had arrived (a stream's).
   */
  async next(failure: unknown, headers: boolean, signal: AbortSignal | undefined): Promise<RecoveryStep> {
    let error = failure;
    const sent = headers || answered(failure);
    for (;;) {
      if (isUserAbort(error)) throw error;
      if (signal?.aborted) throw new APIUserAbortError('Recovery was aborted', { cause: signal.reason });
      if (!isRecoverable(error, this.#attempts > 0)) {
        if (this.#attempts === 0) throw error;
        throw this.#giveUp('the service refused a recovery request', error);
      }
      if (this.#attempts >= this.#maxAttempts) {
        throw this.#giveUp(`the reply failed after ${this.#attempts} recovery attempts`, error);
      }
      const attempt = ++this.#attempts;
      // A 429 met by an earlier attempt's request: wait at least what the server asked for.
      const delayMs = Math.max(this.#delay(attempt), retryAfterMs(error) ?? 0);
      let plan: Plan;
      try {
        await sleep(delayMs, signal);
        plan = await this.#plan(sent, error, signal);
      } catch (readFailure) {
        if (readFailure instanceof ReplyRecoveryError) throw readFailure;
        // A read that failed is this attempt's failure: the next one looks again.
        error = readFailure;
        continue;
      }
      const record: RecoveryAttempt = {
        attempt,
        maxAttempts: this.#maxAttempts,
        error: error as Error,
        action: plan.action,
        delayMs,
      };
      try {
        this.#onAttempt?.(record);
      } catch (thrown) {
        // The caller's own code: its failure ends the call, named, and nothing more is sent.
        throw callbackError('recovery', 'recover.onAttempt', thrown);
      }
      return 'reply' in plan ? { attempt: record, reply: plan.reply } : { attempt: record, body: plan.body };
    }
  }

  /** The reply as the caller sees it: what landed before the last request, then its messages. */
  complete(reply: MessageReply): MessageReply {
    if (this.#landed.length === 0) return reply;
    const byIndex = new Map<number, Message>();
    for (const message of [...this.#landed, ...reply.messages]) byIndex.set(message.index, message);
    return { ...reply, messages: [...byIndex.values()].sort((a, b) => a.index - b.index) };
  }

  async #plan(sent: boolean, error: unknown, signal: AbortSignal | undefined): Promise<Plan> {
    const { data: messages, response, requestId } = await this.#view.messages(signal, true);
    const after = this.#lastIndex ?? -1;
    const ours = messages.filter((message) => message.index > after);
    if (this.#content !== undefined && !ours.some(isClientTurn)) {
      // The user's turn is not stored. Sent again only when the server answered the request (it is
      // done with it); a request that got no answer may still arrive, and would make two.
      if (!sent) throw this.#giveUp('the user message was not stored and the request got no answer', error);
      this.#landed = ours;
      return { action: 'resend', body: { content: this.#content } };
    }
    const last = ours.at(-1);
    if (last?.role === 'assistant') {
      const uses = toolUsesOf(last);
      const calls = await Promise.all(uses.map((use) => this.#view.toolCall(use, signal)));
      const pendingTools: PendingTool[] = [];
      for (const call of calls) {
        if (call && (call.state === 'PENDING' || call.state === 'PROCESSING')) {
          const { requestId, name, input, state, createdAt, deadlineAt } = call;
          pendingTools.push({ requestId, name, input, state, createdAt, deadlineAt });
        }
      }
      // A final answer, or a turn that waits for client tools: the reply completed. The session
      // records neither its stop reason nor the heartbeat timeout: a reply with open calls
      // stopped for them (`tool_use`, the only stop reason with pending tools); any other stop
      // reason, and the timeout, stay unknown rather than guessed.
      if (uses.length === 0 || pendingTools.length > 0) {
        const reply: MessageReply = {
          sessionId: this.#sessionId,
          messages: ours,
          ...(pendingTools.length > 0 && { stopReason: 'tool_use' }),
          pendingTools,
        };
        return { action: 'use', reply: { data: reply, response, requestId } };
      }
    }
    this.#landed = ours;
    return { action: 'resume', body: {} };
  }

  /**
   * The wait before `attempt`: the option's, else the retries' backoff. The option's answer is
   * checked where the timer uses it: NaN, a negative, an infinite or a too-long wait (a timer
   * would fire at once) ends the recovery with a TypeError, and nothing more is sent.
   */
  #delay(attempt: number): number {
    const backoff = this.#backoff;
    if (!backoff) return this.#retryBackoff(attempt);
    let delayMs: unknown;
    try {
      delayMs = backoff(attempt);
    } catch (thrown) {
      throw callbackError('recovery', 'recover.backoff', thrown);
    }
    if (typeof delayMs === 'number' && delayMs >= 0 && delayMs <= MAX_TIMER_MS) return delayMs;
    throw wrongValue(
      'recovery',
      `recover.backoff(${attempt})`,
      `a number of ms from 0 to ${MAX_TIMER_MS} (the longest timer)`,
      delayMs,
    );
  }

  #giveUp(message: string, cause: unknown): ReplyRecoveryError {
    return new ReplyRecoveryError(message, {
      sessionId: this.#sessionId,
      attempts: this.#attempts,
      cause,
    });
  }
}

/** Waits `ms` on `setTimeout` (fake timers drive it); an abort ends the wait with its reason. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  const raced = signal ? raceSignal(wait, signal) : wait;
  return raced.finally(() => clearTimeout(timer));
}
