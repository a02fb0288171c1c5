import { type Message, RewindRequestSchema } from '@parley/protocol';
import type { Hono } from 'hono';
import { assertNoReplyRunning } from '../../conversation/conversation-state.js';
import { HttpError } from '../../http-error.js';
import { jsonReply } from '../json-reply.js';
import { parseWith } from '../parse-with.js';
import { readObjectBody } from '../route-body.js';
import type { AppEnv, ServerContext } from '../server-context.js';

/**
 * `POST /v1/messages/:sessionId/rewind`: retracts the client-authored user message at `index`, the
 * `system` message retrieval prefetch stored for it, and every live message after it, and abandons
 * the open tool calls it cuts off.
 */
export function registerRewindRoute(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.post('/v1/messages/:sessionId/rewind', async (c) => {
    const user = c.get('user');
    const sessionId = c.req.param('sessionId');
    ctx.sessions.require(user, sessionId);
    const { index } = parseWith(
      RewindRequestSchema,
      await readObjectBody(c, ctx.maxBodyBytes, { required: true }),
    );
    const session = ctx.sessions.require(user, sessionId);
    assertNoReplyRunning(session);
    const target = session.messages.find((m) => m.index === index && m.deletedAt === null);
    if (target === undefined) throw new HttpError('message_not_found', `No live message at index ${index}`);
    if (target.role !== 'user' || target.content.some((b) => b.type !== 'text')) {
      throw new HttpError(
        'invalid_rewind_target',
        `Message ${index} is not a client-authored user message (it is ${target.role === 'user' ? 'a tool result' : `a ${target.role} message`})`,
      );
    }
    // The retrieval context prefetched for this user message goes with it: the live message just
    // before it, if prefetch stored it.
    const before = session.messages
      .filter((m) => m.deletedAt === null && m.index < index)
      .reduce<Message | undefined>(
        (last, m) => (last === undefined || m.index > last.index ? m : last),
        undefined,
      );
    const prefetched =
      before !== undefined && before.role === 'system' && session.prefetched.has(before.index)
        ? before
        : undefined;
    const now = ctx.clock.now();
    const retracted: number[] = [];
    const abandonedToolCalls: string[] = [];
    const targets = session.messages
      .map((message, position) => ({ message, position }))
      .filter(
        ({ message }) => message.deletedAt === null && (message.index >= index || message === prefetched),
      )
      .sort((a, b) => a.message.index - b.message.index);
    for (const { message, position } of targets) {
      // A stored message never changes: a retracted one is a copy, so whoever holds the message as
      // it was (a response kept by the journal) still sees it so.
      session.messages[position] = { ...message, deletedAt: now };
      retracted.push(message.index);
      for (const block of message.content) {
        if (block.type !== 'tool_use') continue;
        session.serverToolResults.delete(block.id);
        if (session.toolCalls.abandon(block.id, 'cut off by a rewind')) abandonedToolCalls.push(block.id);
      }
    }
    return jsonReply(c, { sessionId: session.id, retracted, abandonedToolCalls }, 200);
  });
}
