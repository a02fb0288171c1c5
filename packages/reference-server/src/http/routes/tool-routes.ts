import { HeartbeatRequestSchema, type JsonObject, ToolResponseRequestSchema } from '@parley/protocol';
import type { Hono } from 'hono';
import { jsonReply } from '../json-reply.js';
import { formatLeaseState, LEASE_STATE_HEADER, leaseTokenOf } from '../lease-token.js';
import { parseWith } from '../parse-with.js';
import { readObjectBody } from '../route-body.js';
import type { AppEnv, ServerContext } from '../server-context.js';

/** Heartbeat (and failure report), tool response, and the tool call's current view. */
export function registerToolRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.post('/v1/tools/request/:sessionId/:requestId/heartbeat', async (c) => {
    const { sessionId, requestId } = c.req.param();
    ctx.sessions.require(c.get('user'), sessionId, c.env.scope?.id);
    const body = parseWith(
      HeartbeatRequestSchema,
      await readObjectBody(c, ctx.maxBodyBytes, { required: true }),
    );
    const leaseToken = leaseTokenOf(c);
    // Look the session up again: it may have been deleted while the body was read.
    const lease = ctx.sessions
      .require(c.get('user'), sessionId, c.env.scope?.id)
      .toolCalls.heartbeat(requestId, body, leaseToken);
    // The lease extension answers in a header: the body stays the protocol's empty one.
    return lease === undefined
      ? c.body(null, 200)
      : c.body(null, 200, { [LEASE_STATE_HEADER]: formatLeaseState(lease) });
  });

  app.post('/v1/tools/response/:sessionId/:requestId', async (c) => {
    const { sessionId, requestId } = c.req.param();
    ctx.sessions.require(c.get('user'), sessionId, c.env.scope?.id);
    // The response's fields are the tool's output: kept as sent, a `__proto__` field included.
    const body = parseWith(
      ToolResponseRequestSchema,
      await readObjectBody(c, ctx.maxBodyBytes, { required: true }),
      'body',
      { asSent: ['response'] },
    );
    const leaseToken = leaseTokenOf(c);
    ctx.sessions
      .require(c.get('user'), sessionId, c.env.scope?.id)
      .toolCalls.respond(requestId, body.response as JsonObject, leaseToken);
    return c.body(null, 200);
  });

  app.get('/v1/tools/request/:sessionId/:requestId', (c) => {
    const { sessionId, requestId } = c.req.param();
    const calls = ctx.sessions.require(c.get('user'), sessionId, c.env.scope?.id).toolCalls;
    return jsonReply(c, calls.view(calls.require(requestId)), 200);
  });
}
