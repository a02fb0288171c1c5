import { getEventListeners } from 'node:events';
import { Parley } from '@parley/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockFetch } from './helpers/mock-fetch.js';

const SESSIONS = { sessions: [] };
const CALLS = 1_000;

function setup() {
  const mock = createMockFetch();
  const client = new Parley({ baseUrl: 'http://parley.test', token: 'tok', fetch: mock.fetch });
  return { mock, client };
}

function listeners(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a buffered call releases the caller's signal when it ends (issue 25 item 5)", () => {
  it('1,000 calls with one long-lived signal leave no abort listener on it', async () => {
    const { mock, client } = setup();
    const app = new AbortController();
    for (let i = 0; i < CALLS; i++) {
      mock.json(200, SESSIONS);
      await client.sessions.list({ signal: app.signal });
    }
    expect(mock.requests).toHaveLength(CALLS);
    expect(listeners(app.signal)).toBe(0);
  });

  it('nor do calls that failed, timed out or waited for a retry', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { mock, client } = setup();
    const app = new AbortController();
    for (let i = 0; i < 100; i++) {
      // A 503, the retry's wait, then a 200; a 400 (not retried); an attempt that times out.
      mock.enqueue(new Response('{}', { status: 503 }));
      mock.json(200, SESSIONS);
      const retried = client.sessions.list({ signal: app.signal });
      await vi.advanceTimersByTimeAsync(0);
      expect(listeners(app.signal)).toBeGreaterThan(0); // ky's retry wait listens to it
      await vi.advanceTimersByTimeAsync(500);
      await retried;
      mock.json(400, { error: { code: 'invalid_request', message: 'no' } });
      await expect(client.sessions.list({ signal: app.signal })).rejects.toMatchObject({ status: 400 });
      mock.hang();
      const timedOut = client.sessions
        .list({ signal: app.signal, timeoutMs: 50, maxRetries: 0 })
        .catch((e) => e);
      await vi.advanceTimersByTimeAsync(50);
      expect(await timedOut).toMatchObject({ name: 'APITimeoutError' });
    }
    expect(listeners(app.signal)).toBe(0);
  });
});
