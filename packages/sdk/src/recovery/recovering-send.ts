import type { WithResponse } from '../core/api-promise.js';
import type { MessageReply } from '../wire/index.js';
import { plainOptions, type RecoveryTarget } from './recovery-target.js';
import { ReplyRecovery } from './reply-recovery.js';
import { SessionView } from './session-view.js';

/**
 * `client.messages.send` with `recover`: sends, and after a failure the recovery says what to do
 * (use the reply the session holds, resume, or send the turn again) until a reply is whole.
 */
export async function sendWithRecovery(target: RecoveryTarget): Promise<WithResponse<MessageReply>> {
  const { sessionId, body, recover } = target;
  const options = plainOptions(target);
  const recovery = new ReplyRecovery(
    new SessionView(target),
    sessionId,
    body,
    recover === true ? {} : recover,
    target.backoff,
  );
  await recovery.prepare(options.signal);
  let next = body;
  for (;;) {
    try {
      const result = await target.messages.send(sessionId, next, options).withResponse();
      return { ...result, data: recovery.complete(result.data) };
    } catch (failure) {
      const step = await recovery.next(failure, false, options.signal);
      if ('reply' in step) return step.reply;
      next = step.body;
    }
  }
}
