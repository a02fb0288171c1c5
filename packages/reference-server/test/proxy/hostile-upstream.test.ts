import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { createReferenceServer } from '@parley/reference-server';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, send, startProxy, startScriptedUpstream } from './helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An upstream that counts its connections: each resolves `closed` when the proxy's side ends it. */
async function countingUpstream(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const sockets: Array<{ socket: Socket; closed: Promise<void> }> = [];
  const server = createServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.push({ socket, closed: once(socket, 'close').then(() => {}) });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}

/** One request written and read as bytes (latin1 both ways), so that no client re-encodes a header. */
async function rawExchange(url: string, head: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(Buffer.from(`${head}connection: close\r\n\r\n`, 'latin1'));
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `café` as UTF-8 bytes, as node:http hands them over: one latin1 character per byte. */
const CAFE_BYTES = Buffer.from('café', 'utf8');
const CAFE_LATIN1 = CAFE_BYTES.toString('latin1');

describe('close() ends the connections the proxy kept alive to its upstream', () => {
  it('the upstream sees its keep-alive connection closed when the server in the test process closes', async () => {
    const upstream = await countingUpstream((_, res) => answer(res, 200, '{"sessions":[]}'));
    const proxy = createReferenceServer({ upstream: { url: upstream.url, log: () => {} } });
    const request = () =>
      proxy.fetch(
        new Request('http://proxy.test/v1/sessions', {
          headers: { authorization: 'Bearer parley-demo-token' },
        }),
      );
    expect((await request()).status).toBe(200);
    expect((await request()).status).toBe(200);
    // Kept alive: the second request used the first one's connection.
    expect(upstream.sockets).toHaveLength(1);
    expect(upstream.sockets[0]?.socket.destroyed).toBe(false);
    await proxy.close();
    await upstream.sockets[0]?.closed;
  });
});

describe('answers the protocol has no place for are violations', () => {
  it('a JSON body with another content type, and an error without one', async () => {
    const upstream = await startScriptedUpstream((request, res) => {
      if (request.method === 'GET') answer(res, 200, '{"sessions":[]}', 'text/html; charset=utf-8');
      else {
        res.writeHead(404);
        res.end('{"error":{"code":"session_not_found","message":"No such session"}}');
      }
    });
    const proxy = await startProxy(upstream.url);
    const listed = await send(`${proxy.url}/v1/sessions`, 'GET');
    // Passed on as it was sent.
    expect(listed.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await listed.json()).toEqual({ sessions: [] });
    expect((await send(`${proxy.url}/v1/sessions/sess_x`, 'DELETE')).status).toBe(404);
    const entries = proxy.running.server.journal.entries();
    expect(entries.map((e) => e.violations)).toEqual([
      [
        {
          in: 'response',
          path: '',
          expected: 'content-type application/json',
          got: 'content-type "text/html; charset=utf-8"',
        },
      ],
      [{ in: 'response', path: '', expected: 'content-type application/json', got: 'no content-type' }],
    ]);
  });

  it('a streamed reply with another content type', async () => {
    const upstream = await startScriptedUpstream((_, res) =>
      answer(
        res,
        200,
        '{"sessionId":"sess_1","events":[{"replyStop":{"messages":[],"stopReason":"end_turn","pendingTools":[],"heartbeatTimeoutMs":1,"usage":{"inputTokens":0,"outputTokens":0,"totalTokens":0}}}]}',
        'text/event-stream',
      ),
    );
    const proxy = await startProxy(upstream.url);
    await (await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', { content: 'Hi' })).text();
    const entry = proxy.running.server.journal.entries()[0];
    expect(entry?.violations).toEqual([
      {
        in: 'response',
        path: '',
        expected: 'content-type application/json',
        got: 'content-type "text/event-stream"',
      },
    ]);
  });

  it('a redirect: passed on unfollowed, and reported with the status the operation answers', async () => {
    const upstream = await startScriptedUpstream((_, res) => {
      res.writeHead(302, { location: 'https://login.example.test/', 'content-type': 'text/html' });
      res.end('<a href="https://login.example.test/">Moved</a>');
    });
    const proxy = await startProxy(upstream.url);
    const response = await fetch(`${proxy.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token' },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://login.example.test/');
    expect(upstream.requests).toHaveLength(1);
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ requests: 1, requestsWithViolations: 1, violations: 1 });
    expect(report.rules).toEqual([
      expect.objectContaining({ operation: 'POST /v1/sessions', expected: 'status 201', count: 1 }),
    ]);
    expect(report.rules[0].last.got).toBe('status 302');
  });
});

describe('header bytes pass as they were sent', () => {
  it.each([
    ['a JSON answer', '/v1/sessions', '{"sessions":[]}'],
    ['an answer that is not UTF-8', '/v1/sessions', Buffer.from([0xff, 0xfe])],
    [
      'a streamed reply',
      '/v1/messages/sess_1/stream',
      '{"sessionId":"sess_1","events":[{"validationException":{"message":"no"}}]}',
    ],
  ])(
    'non-ASCII bytes in a header of %s reach the client, and the client’s reach the upstream, unchanged',
    async (_, path, body) => {
      const upstream = await startScriptedUpstream((_request, res) => {
        const bytes = Buffer.from(body);
        res.writeHead(200, [
          ['content-type', 'application/json'],
          ['x-place', CAFE_LATIN1],
          ['content-length', String(bytes.byteLength)],
        ]);
        // Bytes, so that node:http writes the head as latin1.
        res.end(bytes);
      });
      const proxy = await startProxy(upstream.url);
      const method = path.endsWith('/stream') ? 'POST' : 'GET';
      const raw = await rawExchange(
        proxy.url,
        `${method} ${path} HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer parley-demo-token\r\n` +
          `x-from: ${CAFE_LATIN1}\r\ncontent-length: 0\r\n`,
      );
      expect(raw.includes(Buffer.concat([Buffer.from('x-place: '), CAFE_BYTES, Buffer.from('\r\n')]))).toBe(
        true,
      );
      expect(Buffer.from(String(upstream.requests[0]?.headers['x-from']), 'latin1')).toEqual(CAFE_BYTES);
    },
  );
});

describe('the report counts what went upstream', () => {
  it('a request the proxy refused itself (no local token) is not a forwarded request', async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 200, '{"sessions":[]}'));
    const proxy = await startProxy(upstream.url, { token: 'real-upstream-token-0123456789' });
    expect(
      (await send(`${proxy.url}/v1/sessions`, 'GET', undefined, { authorization: 'Bearer nobody' })).status,
    ).toBe(401);
    expect((await send(`${proxy.url}/v1/sessions`, 'GET')).status).toBe(200);
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ requests: 1, unreachable: 0, timeouts: 0 });
    await proxy.running.close();
    expect(proxy.lines.at(-1)).toMatch(/^\[parley\] proxy report: 1 requests to /);
  });
});

describe('a key named __proto__ in what the upstream sent is kept as data', () => {
  it('in the journal, the exchanges and the answer the client gets', async () => {
    const sent = '{"sessionId":"sess_1","__proto__":{"polluted":true},"createdAt":1}';
    const upstream = await startScriptedUpstream((_, res) => answer(res, 201, sent));
    const proxy = await startProxy(upstream.url);
    const response = await send(`${proxy.url}/v1/sessions`, 'POST', {});
    expect(await response.text()).toBe(sent);
    const journal = await (await proxy.control('/_parley/journal')).text();
    expect(journal).toContain('"__proto__":{"polluted":true}');
    await proxy.running.close();
    const body = proxy.exchanges[0]?.responseBody as Record<string, unknown>;
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('a buffered answer too long to hold is passed on unchecked', () => {
  const LIMIT = 64 * 1024;
  // A list of sessions 4x the limit: valid JSON, as an export of a long conversation would be.
  const sessions = Array.from({ length: 4 * 1024 }, (_, i) => ({
    sessionId: `sess_${i}`,
    pad: 'x'.repeat(40),
  }));
  const LONG = JSON.stringify({ sessions });

  it.each([
    ['with a content-length', true],
    ['chunked, found while reading', false],
  ])(
    '%s: the client gets every byte, the report counts it, the journal keeps its start',
    async (_, declared) => {
      const upstream = await startScriptedUpstream((_request, res) => {
        if (declared) answer(res, 200, LONG);
        else {
          res.writeHead(200, { 'content-type': 'application/json' });
          for (let at = 0; at < LONG.length; at += 16 * 1024) res.write(LONG.slice(at, at + 16 * 1024));
          res.end();
        }
      });
      const proxy = await startProxy(upstream.url, { maxCheckedBodyBytes: LIMIT });
      const response = await send(`${proxy.url}/v1/sessions`, 'GET');
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(LONG);
      const report = await (await proxy.control('/_parley/proxy/report')).json();
      expect(report).toMatchObject({ requests: 1, unchecked: 1, violations: 0 });
      expect(proxy.lines).toContain(
        `[parley] proxy: the answer to GET /v1/sessions is longer than ${LIMIT} bytes: passed on unchecked`,
      );
      const entry = proxy.running.server.journal.entries()[0];
      expect(entry?.response).toMatchObject({ status: 200, bodyTruncated: true, complete: true });
      expect(LONG.startsWith(entry?.response?.body as string)).toBe(true);
      await proxy.running.close();
      expect(proxy.exchanges[0]).toMatchObject({ status: 200, responseBody: undefined });
      expect(proxy.lines.at(-1)).toMatch(/\(1 too long to check\)/);
    },
  );

  it('an answer at the limit is still checked', async () => {
    const body = '{"sessions":[{"sessionId":1}]}';
    const upstream = await startScriptedUpstream((_request, res) => answer(res, 200, body));
    const proxy = await startProxy(upstream.url, { maxCheckedBodyBytes: body.length });
    expect(await (await send(`${proxy.url}/v1/sessions`, 'GET')).text()).toBe(body);
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ unchecked: 0, requestsWithViolations: 1 });
    expect(report.rules[0]).toMatchObject({ path: 'sessions[*].sessionId', expected: 'string' });
  });
});
