import type { WithResponse } from '../core/api-promise.js';
import type { MessageReply } from '../wire/index.js';
import type { RecoverOptions } from './recover-options.js';
import { plainOptions, type RecoveryClient, type RecoveryTarget, recoveryTarget } from './recovery-target.js';
import { ReplyRecovery } from './reply-recovery.js';
import { SessionView } from './session-view.js';

/**
 * `client.messages.send` with `recover`: sends, and after a failure the recovery says what to do
 * (use the reply the session holds, resume, or send the turn again) until a reply is whole.
 */
export async function sendWithRecovery(
  client: RecoveryClient,
  sessionId: string,
  body: RecoveryTarget['body'],
  options: RecoveryTarget['options'] & { recover?: true | RecoverOptions | undefined },
): Promise<WithResponse<MessageReply>> {
  const target = recoveryTarget(client, sessionId, body, options, options.recover ?? true);
  const plain = plainOptions(target);
  const recovery = new ReplyRecovery(
    new SessionView(target),
    sessionId,
    body,
    target.recover === true ? {} : target.recover,
    target.backoff,
  );
  await recovery.prepare(plain.signal);
  let next = body;
  for (;;) {
    try {
      const result = await target.messages.send(sessionId, next, plain).withResponse();
      return { ...result, data: recovery.complete(result.data) };
    } catch (failure) {
      const step = await recovery.next(failure, false, plain.signal);
      if ('reply' in step) return step.reply;
      next = step.body;
    }
  }
}
