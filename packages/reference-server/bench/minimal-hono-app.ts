// A minimal Hono app doing the JSON work of a create and a buffered turn (bearer check, read and
// parse the body, store the session or the messages, answer JSON with a request id), without the
// protocol's checks: the in-process baseline, and over loopback (on @hono/node-server) what the
// framework and its adapter cost as they come, next to the bare node:http baseline.
import { Hono } from 'hono';

const TOKEN = 'parley-demo-token';

interface MinimalSession {
  owner: string;
  customizations: unknown;
  messages: unknown[];
}

export function minimalHonoApp(): { app: Hono; reset(): void } {
  const app = new Hono();
  const sessions = new Map<string, MinimalSession>();
  const requestId = () => `req_${crypto.randomUUID().replaceAll('-', '')}`;
  const readBody = async (request: Request) => {
    const text = await request.text();
    return (text === '' ? {} : JSON.parse(text)) as { customizations?: unknown; content?: unknown };
  };
  app.post('/v1/sessions', async (c) => {
    if (c.req.header('authorization') !== `Bearer ${TOKEN}`) return c.json({ error: 'unauthorized' }, 401);
    const body = await readBody(c.req.raw);
    const sessionId = `sess_${crypto.randomUUID().replaceAll('-', '')}`;
    sessions.set(sessionId, { owner: 'demo', customizations: body.customizations ?? {}, messages: [] });
    c.header('x-request-id', requestId());
    return c.json({ sessionId }, 201);
  });
  app.post('/v1/messages/:sessionId', async (c) => {
    if (c.req.header('authorization') !== `Bearer ${TOKEN}`) return c.json({ error: 'unauthorized' }, 401);
    const body = await readBody(c.req.raw);
    const sessionId = c.req.param('sessionId');
    const session = sessions.get(sessionId);
    if (session === undefined) return c.json({ error: { code: 'session_not_found' } }, 404);
    const now = Date.now();
    const index = session.messages.length;
    const reply = `You said: ${String(body.content)}`;
    const user = {
      role: 'user',
      index,
      content: [{ type: 'text', text: body.content }],
      deletedAt: null,
      createdAt: now,
    };
    const assistant = {
      role: 'assistant',
      index: index + 1,
      content: [{ type: 'text', text: reply }],
      deletedAt: null,
      createdAt: now,
    };
    session.messages.push(user, assistant);
    c.header('x-request-id', requestId());
    return c.json(
      {
        sessionId,
        messages: [assistant],
        stopReason: 'end_turn',
        pendingTools: [],
        heartbeatTimeoutMs: 15_000,
        usage: { inputTokens: 2, outputTokens: reply.split(' ').length },
      },
      200,
    );
  });
  return { app, reset: () => sessions.clear() };
}
