import { CreateSessionRequestSchema, type Customizations } from '@parley/protocol';
import type { Hono } from 'hono';
import { resolveSession } from '../../conversation/session-setup.js';
import { jsonReply } from '../json-reply.js';
import { parseWith } from '../parse-with.js';
import { readObjectBody } from '../route-body.js';
import type { AppEnv, ServerContext } from '../server-context.js';

/** `GET /v1/sessions`, `POST /v1/sessions`, `DELETE /v1/sessions/:sessionId`. */
export function registerSessionRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.get('/v1/sessions', (c) => {
    const sessions = ctx.sessions
      .list(c.get('user'), c.env.scope?.id)
      .map((s) => ({ sessionId: s.id, createdAt: s.createdAt }));
    return jsonReply(c, { sessions }, 200);
  });

  app.post('/v1/sessions', async (c) => {
    // Only an absent or empty body means "no body"; `null` is a 400 like any non-object.
    const body = parseWith(
      CreateSessionRequestSchema,
      (await readObjectBody(c, ctx.maxBodyBytes, { required: false })) ?? {},
    );
    const customizations = (body.customizations ?? {}) as Customizations;
    const { agentId, modelId } = resolveSession(ctx.setup, customizations);
    // Awaited only when it returns a promise: a synchronous check costs no turn.
    const validated = ctx.host?.validateSession?.(customizations);
    if (validated !== undefined) await validated;
    const session = ctx.sessions.create(c.get('user'), customizations, agentId, modelId, c.env.scope?.id);
    return jsonReply(c, { sessionId: session.id }, 201);
  });

  app.delete('/v1/sessions/:sessionId', (c) => {
    const session = ctx.sessions.require(c.get('user'), c.req.param('sessionId'), c.env.scope?.id);
    ctx.sessions.delete(session);
    ctx.host?.sessionDeleted?.(session.id);
    return c.body(null, 204);
  });
}
