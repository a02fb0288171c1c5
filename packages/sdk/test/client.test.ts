import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  Parley,
  ParleyError,
  ResponseValidationError,
} from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { createMockFetch } from './helpers/mock-fetch.js';

const BASE = 'http://parley.test';

function setup(options: Partial<ConstructorParameters<typeof Parley>[0]> = {}) {
  const mock = createMockFetch();
  const client = new Parley({ baseUrl: BASE, token: 'tok', fetch: mock.fetch, ...options });
  return { mock, client };
}

const REPLY = {
  sessionId: 's1',
  messages: [],
  stopReason: 'end_turn',
  pendingTools: [],
  heartbeatTimeoutMs: 15000,
};

describe('requests', () => {
  it('sessions.create posts the customizations with the bearer token', async () => {
    const { mock, client } = setup();
    mock.json(201, { sessionId: 's1' });
    await expect(client.sessions.create({ customizations: { agentId: 'support' } })).resolves.toEqual({
      sessionId: 's1',
    });
    const [request] = mock.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`${BASE}/v1/sessions`);
    expect(request?.headers.get('authorization')).toBe('Bearer tok');
    expect(request?.headers.get('content-type')).toMatch(/application\/json/);
    expect(JSON.parse(mock.bodies[0] ?? '')).toEqual({ customizations: { agentId: 'support' } });
  });

  it('sessions.create without a body sends {}', async () => {
    const { mock, client } = setup();
    mock.json(201, { sessionId: 's1' });
    await client.sessions.create();
    expect(mock.bodies[0]).toBe('{}');
  });

  it('sessions.list returns the sessions array', async () => {
    const { mock, client } = setup();
    mock.json(200, { sessions: [{ sessionId: 's2', createdAt: 2 }] });
    await expect(client.sessions.list()).resolves.toEqual([{ sessionId: 's2', createdAt: 2 }]);
    expect(mock.requests[0]?.method).toBe('GET');
  });

  it('sessions.delete sends DELETE and resolves on 204', async () => {
    const { mock, client } = setup();
    mock.enqueue(new Response(null, { status: 204 }));
    await expect(client.sessions.delete('a/b')).resolves.toBeUndefined();
    expect(mock.requests[0]?.method).toBe('DELETE');
    expect(mock.requests[0]?.url).toBe(`${BASE}/v1/sessions/a%2Fb`);
  });

  it('messages.send posts the content and returns the reply', async () => {
    const { mock, client } = setup();
    mock.json(200, REPLY);
    await expect(client.messages.send('s1', { content: 'Hi' })).resolves.toEqual(REPLY);
    expect(mock.requests[0]?.url).toBe(`${BASE}/v1/messages/s1`);
    expect(mock.bodies[0]).toBe('{"content":"Hi"}');
  });

  it('messages.export passes includeDeleted and returns the messages', async () => {
    const { mock, client } = setup();
    const message = {
      role: 'user',
      index: 0,
      content: [{ type: 'text', text: 'x' }],
      deletedAt: 5,
      createdAt: 1,
    };
    mock.json(200, { sessionId: 's1', messages: [message] });
    await expect(client.messages.export('s1', { includeDeleted: true })).resolves.toEqual([message]);
    expect(mock.requests[0]?.url).toBe(`${BASE}/v1/messages/s1?includeDeleted=true`);
  });

  it('messages.rewind posts the index', async () => {
    const { mock, client } = setup();
    mock.json(200, { sessionId: 's1', retracted: [2, 3], abandonedToolCalls: [] });
    await expect(client.messages.rewind('s1', 2)).resolves.toMatchObject({ retracted: [2, 3] });
    expect(mock.requests[0]?.url).toBe(`${BASE}/v1/messages/s1/rewind`);
    expect(mock.bodies[0]).toBe('{"index":2}');
  });

  it('tools.heartbeat, respond, fail and get use the tool endpoints', async () => {
    const { mock, client } = setup();
    mock.enqueue(
      new Response(null, { status: 200 }),
      new Response('', { status: 200 }),
      new Response(null, { status: 200 }),
    );
    const call = {
      sessionId: 's1',
      requestId: 't1',
      name: 'w',
      input: {},
      state: 'COMPLETE',
      createdAt: 1,
      deadlineAt: 2,
      lastHeartbeatAt: null,
      settledAt: 2,
    };
    mock.json(200, call);
    await client.tools.heartbeat('s1', 't1');
    await client.tools.respond('s1', 't1', { temperatureC: 18 });
    await client.tools.fail('s1', 't1', 'boom');
    await expect(client.tools.get('s1', 't1')).resolves.toEqual(call);
    expect(mock.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /v1/tools/request/s1/t1/heartbeat',
      'POST /v1/tools/response/s1/t1',
      'POST /v1/tools/request/s1/t1/heartbeat',
      'GET /v1/tools/request/s1/t1',
    ]);
    expect(JSON.parse(mock.bodies[0] ?? '')).toMatchObject({
      state: 'PROCESSING',
      heartbeat: expect.any(Number),
    });
    expect(JSON.parse(mock.bodies[1] ?? '')).toEqual({ response: { temperatureC: 18, state: 'COMPLETE' } });
    expect(JSON.parse(mock.bodies[2] ?? '')).toEqual({ state: 'ERROR', error: 'boom' });
  });

  it('getToken is called before each request and wins over token', async () => {
    let n = 0;
    const { mock, client } = setup({ getToken: async () => `t${++n}` });
    mock.json(200, { sessions: [] });
    mock.json(200, { sessions: [] });
    await client.sessions.list();
    await client.sessions.list();
    expect(mock.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('a failing getToken rejects with a ParleyError carrying the cause', async () => {
    const cause = new Error('vault down');
    const { client } = setup({
      getToken: () => {
        throw cause;
      },
    });
    const error = await client.sessions.list().catch((e: unknown) => e);
    expect(error instanceof ParleyError && error.cause).toBe(cause);
  });

  it('client and request headers are sent', async () => {
    const { mock, client } = setup({ headers: { 'x-app': 'demo' } });
    mock.json(200, { sessions: [] });
    await client.sessions.list({ headers: { 'x-trace': '1' } });
    expect(mock.requests[0]?.headers.get('x-app')).toBe('demo');
    expect(mock.requests[0]?.headers.get('x-trace')).toBe('1');
  });

  it('a logger with logLevel debug gets a debug line per request and per response (a logger alone does not change the level)', async () => {
    const lines: string[] = [];
    const logger = { debug: (line: string) => lines.push(line), info() {}, warn() {}, error() {} };
    const { mock, client } = setup({ logger });
    mock.json(200, { sessions: [] }, { 'x-request-id': 'req_1' });
    await client.sessions.list();
    expect(lines).toEqual([]);
    const { mock: debugMock, client: debugClient } = setup({ logger, logLevel: 'debug' });
    debugMock.json(200, { sessions: [] }, { 'x-request-id': 'req_1' });
    await debugClient.sessions.list();
    expect(lines).toEqual([
      `[parley] → GET ${BASE}/v1/sessions (accept: application/json, authorization: Bearer ***)`,
      `[parley] ← 200 GET ${BASE}/v1/sessions (request req_1)`,
    ]);
  });

  it('a base URL with a path keeps it', async () => {
    const { mock, client } = setup({ baseUrl: `${BASE}/api/` });
    mock.json(200, { sessions: [] });
    await client.sessions.list();
    expect(mock.requests[0]?.url).toBe(`${BASE}/api/v1/sessions`);
  });
});

describe('error responses', () => {
  it('map the body to code, message, details and request id', async () => {
    const { mock, client } = setup();
    mock.json(
      409,
      { error: { code: 'tool_calls_open', message: 'Tool calls are open', details: { openToolCalls: [] } } },
      { 'x-request-id': 'req_9' },
    );
    const error = await client.messages.send('s1', { content: 'x' }).catch((e: unknown) => e);
    expect(error instanceof ConflictError).toBe(true);
    expect(error).toMatchObject({
      status: 409,
      code: 'tool_calls_open',
      details: { openToolCalls: [] },
      requestId: 'req_9',
      message: `409 tool_calls_open: Tool calls are open (POST ${BASE}/v1/messages/s1, request req_9)`,
    });
  });

  it('401 is an AuthenticationError, 404 a NotFoundError', async () => {
    const { mock, client } = setup();
    mock.json(401, { error: { code: 'unauthorized', message: 'no' } });
    mock.json(404, { error: { code: 'session_not_found', message: 'gone' } });
    expect((await client.sessions.list().catch((e: unknown) => e)) instanceof AuthenticationError).toBe(true);
    expect((await client.messages.export('s').catch((e: unknown) => e)) instanceof NotFoundError).toBe(true);
  });

  it('a non-JSON error body still gives a typed error', async () => {
    const { mock, client } = setup();
    mock.enqueue(new Response('Bad gateway from proxy', { status: 413 }));
    const error = await client.sessions.create().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PayloadTooLargeError', status: 413, code: undefined });
    expect((error as Error).message).toContain('Bad gateway from proxy');
  });
});

describe('response validation', () => {
  it('a body that breaks the schema is a ResponseValidationError with issues', async () => {
    const { mock, client } = setup();
    mock.json(200, { sessions: [{ sessionId: 7 }] });
    const error = await client.sessions.list().catch((e: unknown) => e);
    expect(error instanceof ResponseValidationError).toBe(true);
    if (!(error instanceof ResponseValidationError)) return;
    expect(error.issues[0]?.path).toEqual(['sessions', 0, 'sessionId']);
    expect(error.message).toContain('sessions.0.sessionId');
  });

  it('a body that is not JSON is a ResponseValidationError', async () => {
    const { mock, client } = setup();
    mock.enqueue(new Response('<html>', { status: 200 }));
    expect((await client.sessions.list().catch((e: unknown) => e)) instanceof ResponseValidationError).toBe(
      true,
    );
  });

  it('unknown fields pass through', async () => {
    const { mock, client } = setup();
    mock.json(200, { ...REPLY, futureField: 1 });
    await expect(client.messages.send('s1', {})).resolves.toMatchObject({ futureField: 1 });
  });
});
