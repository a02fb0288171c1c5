import { RewindRequestSchema } from '@parley/protocol';
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
    const scope = c.env.scope?.id;
    const sessionId = c.req.param('sessionId');
    ctx.sessions.require(user, sessionId, scope);
    const { index } = parseWith(
      RewindRequestSchema,
      await readObjectBody(c, ctx.maxBodyBytes, { required: true }),
    );
    const session = ctx.sessions.require(user, sessionId, scope);
    assertNoReplyRunning(session);
    const { messages } = session;
    const positions: number[] = [];
    for (let i = 0; i < messages.length; i++) if (messages.isLiveAt(i)) positions.push(i);
    const targetPosition = positions.find((p) => messages.indexAt(p) === index);
    if (targetPosition === undefined)
      throw new HttpError('message_not_found', `No live message at index ${index}`);
    const target = messages.at(targetPosition);
    if (target.role !== 'user' || target.content.some((b) => b.type !== 'text')) {
      throw new HttpError(
        'invalid_rewind_target',
        `Message ${index} is not a client-authored user message (it is ${target.role === 'user' ? 'a tool result' : `a ${target.role} message`})`,
      );
    }
    // The retrieval context prefetched for this user message goes with it: the live message just
    // before it, if prefetch stored it.
    const indexOf = (position: number) => messages.indexAt(position) as number;
    const before = positions
      .filter((p) => indexOf(p) < index)
      .reduce<number | undefined>(
        (last, p) => (last === undefined || indexOf(p) > indexOf(last) ? p : last),
        undefined,
      );
    const prefetched =
      before !== undefined && messages.roleAt(before) === 'system' && session.prefetched.has(indexOf(before))
        ? before
        : undefined;
    const now = ctx.clock.now();
    const retracted: number[] = [];
    const abandonedToolCalls: string[] = [];
    const targets = positions
      .filter((p) => indexOf(p) >= index || p === prefetched)
      .sort((a, b) => indexOf(a) - indexOf(b));
    for (const position of targets) {
      // Responses hold copies of what they read: retracting changes only the stored message.
      messages.retract(position, now);
      retracted.push(indexOf(position));
      for (const block of messages.contentAt(position)) {
        if (block.type !== 'tool_use') continue;
        session.serverToolResults.delete(block.id);
        if (session.toolCalls.abandon(block.id, 'cut off by a rewind')) abandonedToolCalls.push(block.id);
      }
    }
    return jsonReply(c, { sessionId: session.id, retracted, abandonedToolCalls }, 200);
  });
}
