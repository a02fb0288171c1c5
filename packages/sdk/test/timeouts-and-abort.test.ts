import { APIConnectionError, APITimeoutError, APIUserAbortError, Parley } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createControlledBody, createMockFetch } from './helpers/mock-fetch.js';

function setup(options: { timeoutMs?: number; maxRetries?: number } = {}) {
  const mock = createMockFetch();
  const client = new Parley({ baseUrl: 'http://parley.test', token: 'tok', fetch: mock.fetch, ...options });
  return { mock, client };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('timeouts', () => {
  it('a request without an answer within timeoutMs rejects with APITimeoutError', async () => {
    const { mock, client } = setup({ timeoutMs: 1000 });
    mock.hang();
    const result = client.messages.send('s1', { content: 'x' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    const error = await result;
    expect(error instanceof APITimeoutError).toBe(true);
    expect((error as Error).message).toContain(
      'timed out after 1000 ms (POST http://parley.test/v1/messages/s1)',
    );
    expect(mock.requests[0]?.signal.aborted).toBe(true);
  });

  it('the per-request timeoutMs wins over the client default', async () => {
    const { mock, client } = setup({ timeoutMs: 60_000, maxRetries: 0 });
    mock.hang();
    const result = client.sessions.list({ timeoutMs: 50 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    expect((await result) instanceof APITimeoutError).toBe(true);
  });

  it('the timeout covers reading the body', async () => {
    const { mock, client } = setup({ timeoutMs: 100, maxRetries: 0 });
    const body = createControlledBody();
    body.push('{"sessions":[');
    mock.enqueue(new Response(body.stream, { status: 200 }));
    const result = client.sessions.list().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect((await result) instanceof APITimeoutError).toBe(true);
  });

  it('a timed-out GET is retried', async () => {
    const { mock, client } = setup({ timeoutMs: 100 });
    mock.hang();
    mock.json(200, { sessions: [] });
    const result = client.sessions.list();
    await vi.runAllTimersAsync();
    await expect(result).resolves.toEqual([]);
  });
});

describe('abort', () => {
  it('the caller aborting rejects with APIUserAbortError and aborts the fetch', async () => {
    const { mock, client } = setup();
    mock.hang();
    const controller = new AbortController();
    const result = client.messages
      .send('s1', { content: 'x' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    expect((await result) instanceof APIUserAbortError).toBe(true);
    expect(mock.requests[0]?.signal.aborted).toBe(true);
  });

  it('an already aborted signal sends nothing', async () => {
    const { mock, client } = setup();
    await expect(client.sessions.list({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'APIUserAbortError',
    });
    expect(mock.requests).toHaveLength(0);
  });

  it('a user abort is not retried', async () => {
    const { mock, client } = setup();
    mock.hang();
    const controller = new AbortController();
    const result = client.sessions.list({ signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    await result;
    await vi.runAllTimersAsync();
    expect(mock.requests).toHaveLength(1);
  });
});

describe('network failure', () => {
  it('is an APIConnectionError with the cause kept', async () => {
    const { mock, client } = setup({ maxRetries: 0 });
    const cause = new TypeError('fetch failed');
    mock.enqueue(cause);
    const error = await client.sessions.list().catch((e: unknown) => e);
    expect(error instanceof APIConnectionError && !(error instanceof APITimeoutError)).toBe(true);
    expect((error as Error).cause).toBe(cause);
  });
});
