import { connect } from 'node:net';
import { type RunningServer, startServer } from '@parley/reference-server';
import { afterEach, describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';

/** Rejects after `ms` of real time: only a failure guard, never what a test waits for. */
function guard<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no response within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A request body that sends `bytes` bytes in 256-byte chunks and then stays open until `end()`. */
function openBody(bytes: number) {
  let sent = 0;
  let close: (() => void) | undefined;
  const stays = new Promise<void>((resolve) => {
    close = resolve;
  });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= bytes) {
        await stays;
        controller.close();
        return;
      }
      const chunk = new Uint8Array(Math.min(256, bytes - sent)).fill(0x20);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, end: () => close?.() };
}

/** A JSON value nested `depth` levels (the outermost object or array is level 1). */
function nested(depth: number, innermost: unknown = 1): unknown {
  let value = innermost;
  for (let i = 1; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return depth === 0 ? innermost : { deep: value };
}

/** JSON text nested `depth` levels of arrays (built as text: JSON.stringify would recurse). */
const deepArrays = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('request bodies over real HTTP: a body is read only as far as the route needs', () => {
  let running: RunningServer | undefined;
  const open: Array<{ end(): void }> = [];
  afterEach(async () => {
    for (const body of open.splice(0)) body.end();
    await running?.close();
    running = undefined;
  });

  const post = (path: string, body: ReadableStream<Uint8Array>, token: string | null) =>
    fetch(`${running!.url}${path}`, {
      method: 'POST',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      body,
      duplex: 'half',
    } as RequestInit);

  it('a chunked body that passes maxBodyBytes and stays open is 413 at once', async () => {
    running = await startServer({ port: 0, maxBodyBytes: 1024 });
    const body = openBody(8 * 1024);
    open.push(body);
    const res = await guard(post('/v1/sessions', body.stream, 'parley-demo-token'), 5000, 'oversized body');
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    const entry = running.server.journal.last();
    expect(entry?.response?.status).toBe(413);
    expect(entry?.bodyTruncated).toBe(true);
  });

  it('an unauthenticated open body is 401 without reading it whole', async () => {
    running = await startServer({ port: 0, maxBodyBytes: 1024 });
    const body = openBody(512);
    open.push(body);
    const res = await guard(post('/v1/sessions', body.stream, null), 5000, 'unauthenticated body');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    const entry = running.server.journal.last();
    expect(entry?.response?.status).toBe(401);
    expect(entry).not.toHaveProperty('body');
  });

  it('a chunked body within maxBodyBytes is read whole', async () => {
    running = await startServer({ port: 0, maxBodyBytes: 1024 });
    const parts = ['{"customizations":', '{"sessionData":{"a":1}}}'];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(part));
      },
    });
    const res = await guard(post('/v1/sessions', body, 'parley-demo-token'), 5000, 'chunked body');
    expect(res.status).toBe(201);
    expect(running.server.journal.last()?.body).toEqual({ customizations: { sessionData: { a: 1 } } });
  });

  it('the journal keeps the body the route read', async () => {
    running = await startServer({ port: 0 });
    const res = await fetch(`${running.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token' },
      body: JSON.stringify({ customizations: {} }),
    });
    expect(res.status).toBe(201);
    expect(running.server.journal.last()?.body).toEqual({ customizations: {} });
  });
});

describe(`JSON nested deeper than 64 levels is 400 invalid_request`, () => {
  it('names the limit, for a tool response, sessionData and a send; the session stays usable', async () => {
    const h = harness({ control: true });
    // 20 000 levels, 40 KB: far below the size limit.
    const tooDeep = deepArrays(20_000);
    const raw = (text: string) => ({ rawBody: text });

    // sessionData at session creation
    const created = await h.call(
      'POST',
      '/v1/sessions',
      undefined,
      raw(`{"customizations":{"sessionData":${tooDeep}}}`),
    );
    expect(expectError(created, 400, 'invalid_request').message).toMatch(/64/);
    expect(created.body.error.details).toEqual({ maxDepth: 64 });

    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, '/tool get_weather {"city":"Paris"}');
    const requestId = reply.pendingTools[0]!.requestId;
    const path = `/v1/tools/response/${sessionId}/${requestId}`;
    const respond = (response: unknown) => h.call('POST', path, { response });

    // a tool response, twice (a repeat must not turn into a 500)
    for (let i = 0; i < 2; i++) {
      const deepResponse = await h.call(
        'POST',
        path,
        undefined,
        raw(`{"response":{"state":"COMPLETE","data":${tooDeep}}}`),
      );
      expect(expectError(deepResponse, 400, 'invalid_request').message).toMatch(/64/);
    }
    // a send, buffered and streamed
    for (const send of ['', '/stream']) {
      const res = await h.call('POST', `/v1/messages/${sessionId}${send}`, undefined, {
        rawBody: `{"content":[{"type":"text","text":"x","extra":${tooDeep}}]}`,
      });
      expect(expectError(res, 400, 'invalid_request').message).toMatch(/64/);
    }

    // The journal keeps the refused body as text: reading it does not recurse 20 000 levels.
    expect(h.server.journal.last()?.body).toEqual(expect.stringContaining('[[[['));
    expect(h.server.journal.entries()).toHaveLength(h.server.journal.size);

    // 64 levels in all (the body is level 1) pass
    const deepest = { state: 'COMPLETE', data: nested(62) };
    expect((await respond(deepest)).status).toBe(200);
    expect((await respond(deepest)).status).toBe(200); // an identical repeat
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).status).toBe(200);
    expect((await h.call('POST', `/v1/messages/${sessionId}`, {})).status).toBe(200);
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).status).toBe(200);
    expect((await h.call('GET', '/_parley/journal')).status).toBe(200);
    expect((await h.call('GET', '/_parley/sessions')).status).toBe(200);
  });

  it('65 levels are refused; brackets inside strings do not count', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, '/tool get_weather {"city":"Paris"}');
    const path = `/v1/tools/response/${sessionId}/${reply.pendingTools[0]!.requestId}`;
    const tooDeep = await h.call('POST', path, { response: { state: 'COMPLETE', data: nested(63) } });
    expect(expectError(tooDeep, 400, 'invalid_request').details).toEqual({ maxDepth: 64 });
    const brackets = { response: { state: 'COMPLETE', text: '[[[[{{{{'.repeat(100), escaped: '\\"[[[' } };
    expect((await h.call('POST', path, brackets)).status).toBe(200);
  });
});

describe('a JSON null body is not "no body": body must be a JSON object', () => {
  it('create, send (not a resume), rewind, heartbeat and response answer null with 400', async () => {
    const h = harness();
    const nullBody = { rawBody: 'null' };
    const create = await h.call('POST', '/v1/sessions', undefined, nullBody);
    expect(expectError(create, 400, 'invalid_request').message).toMatch(/body must be a JSON object/);
    expect(h.server.sessionCount).toBe(0);

    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, '/tool get_weather {"city":"Paris"}');
    const requestId = reply.pendingTools[0]!.requestId;
    for (const path of [
      `/v1/messages/${sessionId}`,
      `/v1/messages/${sessionId}/stream`,
      `/v1/messages/${sessionId}/rewind`,
      `/v1/tools/request/${sessionId}/${requestId}/heartbeat`,
      `/v1/tools/response/${sessionId}/${requestId}`,
    ]) {
      for (const raw of ['null', '[]', '"text"', '7']) {
        const res = await h.call('POST', path, undefined, { rawBody: raw });
        expect(expectError(res, 400, 'invalid_request').message, `${path} ${raw}`).toMatch(
          /body must be a JSON object/,
        );
      }
    }
    // Nothing changed: the tool call is still pending.
    expect((await h.call('GET', `/v1/tools/request/${sessionId}/${requestId}`)).body.state).toBe('PENDING');
  });

  it('an absent or empty body still means no body (create; send = resume)', async () => {
    const h = harness();
    expect((await h.call('POST', '/v1/sessions')).status).toBe(201);
    expect((await h.call('POST', '/v1/sessions', undefined, { rawBody: '' })).status).toBe(201);
    const sessionId = await h.createSession();
    const resume = await h.call('POST', `/v1/messages/${sessionId}`, undefined, { rawBody: '' });
    expectError(resume, 409, 'nothing_to_resume');
  });
});

describe('a whitespace-only body is not "no body": it is 400 invalid_json', () => {
  it('a tab does not create a session, a space does not resume, and no tool call route takes one', async () => {
    const h = harness();
    for (const raw of ['\t', ' ', '\r\n', ' \n\t ']) {
      const create = await h.call('POST', '/v1/sessions', undefined, { rawBody: raw });
      expect(expectError(create, 400, 'invalid_json').message, JSON.stringify(raw)).toMatch(
        /whitespace only/,
      );
    }
    expect(h.server.sessionCount).toBe(0);

    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, '/tool get_weather {"city":"Paris"}');
    const requestId = reply.pendingTools[0]!.requestId;
    for (const path of [
      `/v1/messages/${sessionId}`,
      `/v1/messages/${sessionId}/stream`,
      `/v1/messages/${sessionId}/rewind`,
      `/v1/tools/request/${sessionId}/${requestId}/heartbeat`,
      `/v1/tools/response/${sessionId}/${requestId}`,
    ]) {
      for (const raw of [' ', '\t']) {
        const res = await h.call('POST', path, undefined, { rawBody: raw });
        expectError(res, 400, 'invalid_json');
      }
    }
    // Nothing changed: the tool call is still pending and no turn was added.
    expect((await h.call('GET', `/v1/tools/request/${sessionId}/${requestId}`)).body.state).toBe('PENDING');
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).body.messages).toHaveLength(2);
  });
});

describe('a body over node:http is read off the connection, and no body is read at all', () => {
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  /** Sends `head` and each part as its own write, then reads the whole answer (the server closes). */
  function rawRequest(url: string, head: string, parts: readonly Buffer[]): Promise<string> {
    const { port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        answer += chunk;
      });
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.write(head);
      const next = (i: number) => {
        if (i < parts.length) socket.write(parts[i] as Buffer, () => setImmediate(() => next(i + 1)));
      };
      next(0);
    });
  }

  /** A request head; `framing` is its Content-Length or Transfer-Encoding line, or none at all. */
  const head = (url: string, length: number | 'chunked' | 'none') =>
    `POST /v1/sessions HTTP/1.1\r\nHost: ${new URL(url).host}\r\nAuthorization: Bearer parley-demo-token\r\n` +
    (length === 'none'
      ? ''
      : length === 'chunked'
        ? 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n'
        : `Content-Type: application/json\r\nContent-Length: ${length}\r\n`) +
    'Connection: close\r\n\r\n';

  it('a POST with neither Content-Length nor Transfer-Encoding has no body: the session is created', async () => {
    running = await startServer({ port: 0 });
    const answer = await guard(rawRequest(running.url, head(running.url, 'none'), []), 5000, 'no body');
    expect(answer.startsWith('HTTP/1.1 201')).toBe(true);
    expect(running.server.sessionCount).toBe(1);
    expect(running.server.journal.last()?.body).toBeUndefined();
  });

  it('a chunked body (no Content-Length) is still read whole', async () => {
    running = await startServer({ port: 0 });
    const json = JSON.stringify({ customizations: { sessionData: { note: 'chunked' } } });
    const chunk = (text: string) => Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
    const parts = [chunk(json.slice(0, 12)), chunk(json.slice(12)), Buffer.from('0\r\n\r\n')];
    const answer = await guard(rawRequest(running.url, head(running.url, 'chunked'), parts), 5000, 'chunked');
    expect(answer.startsWith('HTTP/1.1 201')).toBe(true);
    expect(running.server.journal.last()?.body).toEqual({
      customizations: { sessionData: { note: 'chunked' } },
    });
  });

  it('a body written in many pieces (a multi-byte character split between two) is read whole', async () => {
    running = await startServer({ port: 0 });
    const body = Buffer.from(JSON.stringify({ customizations: { sessionData: { note: 'Grüße, 世界' } } }));
    const split = body.indexOf(Buffer.from('世')) + 1; // inside the 3-byte character
    const parts = [body.subarray(0, 10), body.subarray(10, split), body.subarray(split)];
    const answer = await guard(
      rawRequest(running.url, head(running.url, body.length), parts),
      5000,
      'split body',
    );
    expect(answer.startsWith('HTTP/1.1 201')).toBe(true);
    expect(running.server.journal.last()?.body).toEqual({
      customizations: { sessionData: { note: 'Grüße, 世界' } },
    });
    expect(running.server.sessionCount).toBe(1);
  });

  it('a body that is not UTF-8 is 400 invalid_json', async () => {
    running = await startServer({ port: 0 });
    const body = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]); // {"\xff\xfe":1}
    const answer = await guard(
      rawRequest(running.url, head(running.url, body.length), [body]),
      5000,
      'bad UTF-8',
    );
    expect(answer.startsWith('HTTP/1.1 400')).toBe(true);
    expect(answer).toContain('"code":"invalid_json"');
    expect(running.server.sessionCount).toBe(0);
  });

  it('a client that leaves halfway through its body creates nothing, and the server keeps serving', async () => {
    running = await startServer({ port: 0 });
    const url = running.url;
    await guard(
      new Promise<void>((resolve, reject) => {
        const socket = connect(Number(new URL(url).port), '127.0.0.1');
        socket.on('error', reject);
        socket.write(`${head(url, 100)}{"customizations":`, () => {
          socket.destroy();
          resolve();
        });
      }),
      5000,
      'half a body',
    );
    // The server saw the request start; it answers the next one whatever became of the first.
    const res = await guard(
      fetch(`${url}/v1/sessions`, { method: 'POST', headers: { authorization: 'Bearer parley-demo-token' } }),
      5000,
      'next request',
    );
    expect(res.status).toBe(201);
    expect(running.server.sessionCount).toBe(1);
  });
});
