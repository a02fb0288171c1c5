import type { OpenResponse } from '../core/http-client.js';
import type { MessageReply, StopReason } from '../wire/index.js';
import type { RecoveryAttempt } from './recover-options.js';
import type { OpenStream, RecoveryCall, RecoveryClient } from './recovery-call.js';
import { ReplyRecovery } from './reply-recovery.js';

/**
 * After a failure: the reply the session holds, or the opening of the stream that resumes it.
 *
 * @internal
 */
export type StreamRecoveryStep =
  | { attempt: RecoveryAttempt; reply: MessageReply }
  | { attempt: RecoveryAttempt; opening: Promise<OpenResponse> };

/** A message as the stream rebuilt it from its events (`MessageSnapshot`), as far as read here. */
interface StreamedMessage {
  index: number;
  stopReason?: StopReason;
}

/** What the stream knows when it fails. */
export interface StreamFailure {
  /** Whether the response's headers had arrived. */
  headers: boolean;
  /** The messages as the stream rebuilt them from the events it read. */
  streamed: readonly StreamedMessage[];
}

/**
 * How a `MessageStream` with the `recover` option opens its request and recovers its reply.
 *
 * @internal
 */
export interface StreamRecovery {
  /** Learns where the conversation ends (unless known), then opens the stream. */
  open(signal: AbortSignal): Promise<OpenResponse>;
  /** After a failure: what to read next. Throws to give up. */
  next(failure: unknown, known: StreamFailure, signal: AbortSignal): Promise<StreamRecoveryStep>;
  /** The reply as the caller sees it: the messages that landed before a resume, then its own. */
  complete(reply: MessageReply): MessageReply;
}

/** The {@link StreamRecovery} of one `client.messages.stream` call; `open` sends a body of it. */
export function streamRecovery(client: RecoveryClient, call: RecoveryCall, open: OpenStream): StreamRecovery {
  const recovery = new ReplyRecovery(client, call);
  return {
    async open(signal) {
      await recovery.prepare(signal);
      return open(call.body, signal);
    },
    async next(failure, { headers, streamed }, signal) {
      const step = await recovery.next(failure, headers, signal);
      if ('reply' in step)
        return { attempt: step.attempt, reply: withStreamedStop(step.reply.data, streamed) };
      const opening = open(step.body, signal);
      // Read by the stream when it gets there; a failure is handled there, never left unhandled.
      opening.catch(() => {});
      return { attempt: step.attempt, opening };
    },
    complete: (reply) => recovery.complete(reply),
  };
}

/**
 * A reply taken from the session has no stop reason unless it stopped for tools; when the stream
 * read its last message's `messageStop` before the cut, that stop reason is the reply's.
 */
function withStreamedStop(reply: MessageReply, streamed: readonly StreamedMessage[]): MessageReply {
  if (reply.stopReason !== undefined) return reply;
  const index = reply.messages.at(-1)?.index;
  const stopReason = streamed.find((message) => message.index === index)?.stopReason;
  return stopReason === undefined ? reply : { ...reply, stopReason };
}
