import type { WithResponse } from '../core/api-promise.js';
import type { MessageReply } from '../wire/index.js';
import type { RecoveryTarget, SendOnce } from './recovery-target.js';
import { ReplyRecovery } from './reply-recovery.js';
import { SessionView } from './session-view.js';

/**
 * `client.messages.send` with `recover`: sends, and after a failure the recovery says what to do
 * (use the reply the session holds, resume, or send the turn again) until a reply is whole.
 */
export async function sendWithRecovery(
  target: RecoveryTarget,
  send: SendOnce,
): Promise<WithResponse<MessageReply>> {
  const { http, sessionId, body, options } = target;
  const view = new SessionView(http, sessionId, options);
  const recovery = new ReplyRecovery(view, sessionId, body, target.recover);
  await recovery.prepare(options.signal);
  let next = body;
  for (;;) {
    try {
      const result = await send(next);
      return { ...result, data: recovery.complete(result.data) };
    } catch (failure) {
      const step = await recovery.next(failure, false, options.signal);
      if ('reply' in step) return step.reply;
      next = step.body;
    }
  }
}
