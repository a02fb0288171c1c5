// The baseline of the loopback bench: a bare node:http server doing the same JSON work as the
// reference server's create and buffered turn (bearer check, read and parse the body when there is
// one, store the session or the messages, answer JSON with a request id), and nothing else.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

const TOKEN = 'parley-demo-token';

interface BareSession {
  customizations: unknown;
  messages: unknown[];
}

/** A bare node:http server for `POST /v1/sessions` and `POST /v1/messages/:id`. */
export function createBareServer(): { server: Server; reset(): void } {
  const sessions = new Map<string, BareSession>();
  const server = createServer((req, res) => {
    readBody(req, (text) => handle(req, res, text, sessions));
  });
  return { server, reset: () => sessions.clear() };
}

function readBody(req: IncomingMessage, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_${randomUUID().replaceAll('-', '')}`,
  });
  res.end(text);
}

function handle(req: IncomingMessage, res: ServerResponse, text: string, sessions: Map<string, BareSession>) {
  if (req.headers.authorization !== `Bearer ${TOKEN}`)
    return send(res, 401, { error: { code: 'unauthorized' } });
  const body = (text === '' ? {} : JSON.parse(text)) as { customizations?: unknown; content?: unknown };
  const url = req.url ?? '';
  if (req.method === 'POST' && url === '/v1/sessions') {
    const sessionId = `sess_${randomUUID().replaceAll('-', '')}`;
    sessions.set(sessionId, { customizations: body.customizations ?? {}, messages: [] });
    return send(res, 201, { sessionId });
  }
  const session = req.method === 'POST' ? sessions.get(url.slice('/v1/messages/'.length)) : undefined;
  if (session === undefined) return send(res, 404, { error: { code: 'session_not_found' } });
  const now = Date.now();
  const user = {
    role: 'user',
    index: session.messages.length,
    content: [{ type: 'text', text: body.content }],
  };
  const reply = `You said: ${String(body.content)}`;
  const assistant = {
    role: 'assistant',
    index: session.messages.length + 1,
    content: [{ type: 'text', text: reply }],
    deletedAt: null,
    createdAt: now,
  };
  session.messages.push({ ...user, deletedAt: null, createdAt: now }, assistant);
  return send(res, 200, {
    sessionId: url.slice('/v1/messages/'.length),
    messages: [assistant],
    stopReason: 'end_turn',
    pendingTools: [],
    heartbeatTimeoutMs: 15_000,
    usage: { inputTokens: 2, outputTokens: reply.split(' ').length },
  });
}
