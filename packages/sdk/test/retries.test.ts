import { APIConnectionError, InternalServerError, Parley, RateLimitError } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockFetch } from './helpers/mock-fetch.js';

const SESSIONS = { sessions: [] };
const REPLY = {
  sessionId: 's1',
  messages: [],
  stopReason: 'end_turn',
  pendingTools: [],
  heartbeatTimeoutMs: 15000,
};

function setup(maxRetries?: number) {
  const mock = createMockFetch();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'tok',
    fetch: mock.fetch,
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
  return { mock, client };
}

function serverError(status = 500, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ error: { code: 'internal_error', message: 'boom' } }), {
    status,
    headers,
  });
}

function refused() {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('retries', () => {
  it('a GET is retried on 5xx with exponential backoff (500 ms, then 1 s)', async () => {
    const { mock, client } = setup();
    mock.enqueue(serverError(503), serverError(502));
    mock.json(200, SESSIONS);
    const result = client.sessions.list();
    await vi.advanceTimersByTimeAsync(0);
    expect(mock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(mock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(mock.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(mock.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual([]);
    expect(mock.requests).toHaveLength(3);
  });

  it('negative jitter shortens the wait by at most a quarter', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const { mock, client } = setup();
    mock.enqueue(serverError(500));
    mock.json(200, SESSIONS);
    const result = client.sessions.list();
    await vi.advanceTimersByTimeAsync(374);
    expect(mock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual([]);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { mock, client } = setup(1);
    mock.enqueue(serverError(500), serverError(500));
    const result = client.sessions.list().catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect((await result) instanceof InternalServerError).toBe(true);
    expect(mock.requests).toHaveLength(2);
  });

  it('per-request maxRetries: 0 disables retries', async () => {
    const { mock, client } = setup();
    mock.enqueue(serverError(500));
    await expect(client.sessions.list({ maxRetries: 0 })).rejects.toMatchObject({ status: 500 });
    expect(mock.requests).toHaveLength(1);
  });

  it.each([408, 429, 500, 502, 503, 504])('retries status %i on a GET', async (status) => {
    const { mock, client } = setup();
    mock.enqueue(serverError(status));
    mock.json(200, SESSIONS);
    const result = client.sessions.list();
    await vi.runAllTimersAsync();
    await expect(result).resolves.toEqual([]);
  });

  it.each([400, 401, 404, 409, 413, 501])('does not retry status %i', async (status) => {
    const { mock, client } = setup();
    mock.enqueue(serverError(status));
    await expect(client.sessions.list()).rejects.toMatchObject({ status });
    expect(mock.requests).toHaveLength(1);
  });

  it('honours retry-after-ms before Retry-After', async () => {
    const { mock, client } = setup();
    mock.enqueue(serverError(429, { 'retry-after-ms': '1500', 'retry-after': '30' }));
    mock.json(200, SESSIONS);
    const result = client.sessions.list();
    await vi.advanceTimersByTimeAsync(1499);
    expect(mock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual([]);
  });

  it('honours Retry-After in seconds, capped at 60 s', async () => {
    const { mock, client } = setup();
    mock.enqueue(serverError(503, { 'retry-after': '3600' }));
    mock.json(200, SESSIONS);
    const result = client.sessions.list();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(mock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual([]);
  });

  it('retries DELETE, heartbeat and tool response on connection errors', async () => {
    const { mock, client } = setup();
    mock.enqueue(new TypeError('socket hang up'), new Response(null, { status: 204 }));
    mock.enqueue(new TypeError('socket hang up'), new Response(null, { status: 200 }));
    mock.enqueue(serverError(503), new Response(null, { status: 200 }));
    const all = Promise.all([
      client.sessions.delete('s1'),
      client.tools.heartbeat('s1', 't1'),
      client.tools.respond('s1', 't1', { ok: true }),
    ]);
    await vi.runAllTimersAsync();
    await expect(all).resolves.toEqual([undefined, undefined, undefined]);
    expect(mock.requests).toHaveLength(6);
  });

  it('never retries a message POST on 5xx', async () => {
    const { mock, client } = setup();
    mock.enqueue(serverError(503));
    await expect(client.messages.send('s1', { content: 'x' })).rejects.toMatchObject({ status: 503 });
    expect(mock.requests).toHaveLength(1);
  });

  it('retries a message POST refused with 429 after Retry-After (a 429 send stored nothing)', async () => {
    const { mock, client } = setup();
    mock.enqueue(serverError(429, { 'retry-after': '2' }));
    mock.json(200, REPLY);
    const result = client.messages.send('s1', { content: 'x' });
    await vi.advanceTimersByTimeAsync(1999);
    expect(mock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ sessionId: REPLY.sessionId });
    expect(mock.requests).toHaveLength(2);
  });

  // What the JSDoc of each method says: sent again on 429, never on a 503.
  it.each([
    ['sessions.create', (c: Parley) => c.sessions.create(), { sessionId: 's1' }],
    ['messages.send', (c: Parley) => c.messages.send('s1', { content: 'x' }), REPLY],
    ['messages.rewind', (c: Parley) => c.messages.rewind('s1', 0), { retracted: [], abandonedToolCalls: [] }],
  ] as const)('%s is sent again after a 429, and not after a 503', async (_name, call, body) => {
    const { mock, client } = setup();
    mock.enqueue(serverError(429, { 'retry-after': '1' }));
    mock.json(200, body);
    const retried = call(client);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(retried).resolves.toBeDefined();
    expect(mock.requests).toHaveLength(2);
    mock.enqueue(serverError(503));
    await expect(call(client)).rejects.toMatchObject({ status: 503 });
    expect(mock.requests).toHaveLength(3);
  });

  it('gives up on 429 after maxRetries and surfaces retryAfterMs', async () => {
    const { mock, client } = setup();
    mock.enqueue(...Array.from({ length: 3 }, () => serverError(429, { 'retry-after': '1' })));
    const settled = client.messages.send('s1', { content: 'x' }).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    const error = await settled;
    expect(error instanceof RateLimitError && error.retryAfterMs).toBe(1000);
    expect(mock.requests).toHaveLength(3);
  });

  it('never retries a message POST or session create on an ambiguous connection error', async () => {
    const { mock, client } = setup();
    mock.enqueue(
      new TypeError('socket hang up'),
      new TypeError('socket hang up'),
      new TypeError('socket hang up'),
    );
    expect(
      (await client.messages.send('s1', { content: 'x' }).catch((e: unknown) => e)) instanceof
        APIConnectionError,
    ).toBe(true);
    expect((await client.sessions.create().catch((e: unknown) => e)) instanceof APIConnectionError).toBe(
      true,
    );
    expect(
      (await client.messages.rewind('s1', 0).catch((e: unknown) => e)) instanceof APIConnectionError,
    ).toBe(true);
    expect(mock.requests).toHaveLength(3);
  });

  it('retries a message POST whose connection was refused (it never reached the server)', async () => {
    const { mock, client } = setup();
    mock.enqueue(refused());
    mock.json(200, REPLY);
    const result = client.messages.send('s1', { content: 'x' });
    await vi.runAllTimersAsync();
    await expect(result).resolves.toMatchObject({ sessionId: 's1' });
    expect(mock.requests).toHaveLength(2);
  });

  it('aborting during the retry wait rejects with APIUserAbortError at once', async () => {
    const { mock, client } = setup();
    mock.enqueue(serverError(503, { 'retry-after': '30' }));
    const controller = new AbortController();
    const result = client.sessions.list({ signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect(await result).toMatchObject({ name: 'APIUserAbortError' });
    expect(mock.requests).toHaveLength(1);
  });
});
