import { connect } from 'node:net';
import { type RunningServer, startServer } from '@parley/reference-server/node';
import { afterEach, describe, expect, test } from 'vitest';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const CREATE_EMPTY =
  'POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer parley-demo-token\r\n' +
  'Content-Type: application/json\r\nContent-Length: 0\r\n\r\n';

/** Writes `bytes` on one socket and reads until the server closes it (or `expected` responses came). */
function exchange(port: number, bytes: string, expected: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // A keep-alive connection stays open after its last answer: stop once all came in.
      if (responses(text).length === expected && complete(text)) {
        socket.end();
      }
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** The responses in `text`: status and body, in order. */
function responses(text: string): { status: number; body: string }[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3})[\s\S]*?\r\n\r\n([\s\S]*?)(?=HTTP\/1\.1 \d{3}|$)/g)].map(
    (m) => ({
      status: Number(m[1]),
      body: m[2] ?? '',
    }),
  );
}

/** Whether the last response's body is all there (by its content-length). */
function complete(text: string): boolean {
  const last = text.lastIndexOf('HTTP/1.1 ');
  const head = text.slice(last);
  if (!head.includes('\r\n\r\n')) return false;
  const length = /content-length: (\d+)/i.exec(head);
  const body = head.slice(head.indexOf('\r\n\r\n') + 4);
  return length === null || Buffer.byteLength(body) >= Number(length[1]);
}

describe('bytes after a declared body never become a request that changes state', () => {
  test('POST /v1/sessions with Content-Length: 0 then "{}": the client is told of the one session, then 400', async () => {
    running = await startServer({ port: 0 });
    const before = running.server.sessionCount;

    const text = await exchange(running.port, `${CREATE_EMPTY}{}`, 2);

    const [created, refused] = responses(text);
    // The request received whole is answered first (HTTP/1.1 answers in order), then the stray
    // bytes get a 400 and the connection closes. Node's default sent only the 400, though the
    // session was made: the client could not know it.
    expect(created?.status).toBe(201);
    expect(refused?.status).toBe(400);
    expect(JSON.parse(refused?.body ?? '')).toEqual({
      error: {
        code: 'invalid_request',
        message:
          'The bytes on this connection are not an HTTP request: Invalid method encountered (HPE_INVALID_METHOD)',
      },
    });
    // One session, the one the 201 named: "{}" was not read as a body, nor as a request.
    expect(running.server.sessionCount).toBe(before + 1);
    const { sessionId } = JSON.parse(created?.body ?? '') as { sessionId: string };
    const list = await fetch(`${running.url}/v1/sessions`, {
      headers: { authorization: 'Bearer parley-demo-token' },
    });
    const { sessions } = (await list.json()) as { sessions: { sessionId: string }[] };
    expect(sessions.map((s) => s.sessionId)).toEqual([sessionId]);
  });

  test('a valid request after the stray bytes is not served either: the connection ends at the 400', async () => {
    running = await startServer({ port: 0 });
    const before = running.server.sessionCount;

    const text = await exchange(running.port, `${CREATE_EMPTY}{}${CREATE_EMPTY}`, 2);

    expect(responses(text).map((r) => r.status)).toEqual([201, 400]);
    expect(running.server.sessionCount).toBe(before + 1);
  });

  test('contrast: two whole pipelined requests are both answered, in order', async () => {
    running = await startServer({ port: 0 });
    const before = running.server.sessionCount;

    const text = await exchange(running.port, `${CREATE_EMPTY}${CREATE_EMPTY}`, 2);

    expect(responses(text).map((r) => r.status)).toEqual([201, 201]);
    expect(running.server.sessionCount).toBe(before + 2);
  });

  test('unreadable bytes with no request before them get the 400 at once', async () => {
    running = await startServer({ port: 0 });
    const text = await exchange(running.port, '{}\r\n\r\n', 1);
    expect(responses(text).map((r) => r.status)).toEqual([400]);
    expect(running.server.sessionCount).toBe(0);
  });
});

describe('a request node:http reads but no URL can be made of is 400 invalid_request with the JSON error body', () => {
  test.each([
    ['an asterisk request-target (OPTIONS *)', 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n'],
    ['a backslash in the path', 'GET /v1\\sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n'],
    ['a Host header that is not a host', 'GET /healthz HTTP/1.1\r\nHost: [::1\r\n'],
  ])('%s', async (_what, head) => {
    running = await startServer({ port: 0 });
    const text = await exchange(running.port, `${head}Connection: close\r\n\r\n`, 1);
    const [refused] = responses(text);
    expect(refused?.status).toBe(400);
    expect(text).toMatch(/content-type: application\/json/i);
    const body = JSON.parse(refused?.body ?? '') as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(/^The request's URL could not be read: /);
  });
});
