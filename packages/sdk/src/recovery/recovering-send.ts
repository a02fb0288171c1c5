import type { WithResponse } from '../core/api-promise.js';
import type { MessageReply } from '../wire/index.js';
import type { RecoveryCall, RecoveryClient } from './recovery-call.js';
import { ReplyRecovery } from './reply-recovery.js';

/**
 * `client.messages.send` with `recover`: sends, and after a failure the recovery says what to do
 * (use the reply the session holds, resume, or send the turn again) until a reply is whole.
 */
export async function sendWithRecovery(
  client: RecoveryClient,
  call: RecoveryCall,
): Promise<WithResponse<MessageReply>> {
  const { sessionId, options } = call;
  const recovery = new ReplyRecovery(client, call);
  await recovery.prepare(options.signal);
  let body = call.body;
  for (;;) {
    try {
      const result = await client.messages.send(sessionId, body, options).withResponse();
      return { ...result, data: recovery.complete(result.data) };
    } catch (failure) {
      const step = await recovery.next(failure, false, options.signal);
      if ('reply' in step) return step.reply;
      body = step.body;
    }
  }
}
