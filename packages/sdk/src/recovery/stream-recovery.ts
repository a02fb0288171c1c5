import type { OpenResponse } from '../core/http-client.js';
import type { MessageReply } from '../wire/index.js';
import type { RecoverOptions, RecoveryAttempt } from './recover-options.js';
import {
  type OpenStream,
  type RecoveryClient,
  type RecoveryTarget,
  recoveryTarget,
} from './recovery-target.js';
import { ReplyRecovery } from './reply-recovery.js';
import { SessionView } from './session-view.js';

/**
 * After a failure: the reply the session holds, or the opening of the stream that resumes it.
 *
 * @internal
 */
export type StreamRecoveryStep =
  | { attempt: RecoveryAttempt; reply: MessageReply }
  | { attempt: RecoveryAttempt; opening: Promise<OpenResponse> };

/**
 * How a `MessageStream` with the `recover` option opens its request and recovers its reply.
 *
 * @internal
 */
export interface StreamRecovery {
  /** Learns where the conversation ends (unless known), then opens the stream. */
  open(signal: AbortSignal): Promise<OpenResponse>;
  /** After a failure (`headers`: the response's headers had arrived): what to read next. Throws to give up. */
  next(failure: unknown, headers: boolean, signal: AbortSignal): Promise<StreamRecoveryStep>;
  /** The reply as the caller sees it: the messages that landed before a resume, then its own. */
  complete(reply: MessageReply): MessageReply;
}

/** The {@link StreamRecovery} of one `client.messages.stream` call. */
export function streamRecovery(
  client: RecoveryClient,
  sessionId: string,
  body: RecoveryTarget['body'],
  options: RecoveryTarget['options'],
  recover: true | RecoverOptions,
  open: OpenStream,
): StreamRecovery {
  const target = recoveryTarget(client, sessionId, body, options, recover);
  const recovery = new ReplyRecovery(
    new SessionView(target),
    sessionId,
    body,
    recover === true ? {} : recover,
    target.backoff,
  );
  return {
    async open(signal) {
      await recovery.prepare(signal);
      return open(body, signal);
    },
    async next(failure, headers, signal) {
      const step = await recovery.next(failure, headers, signal);
      if ('reply' in step) return { attempt: step.attempt, reply: step.reply.data };
      const opening = open(step.body, signal);
      // Read by the stream when it gets there; a failure is handled there, never left unhandled.
      opening.catch(() => {});
      return { attempt: step.attempt, opening };
    },
    complete: (reply) => recovery.complete(reply),
  };
}
