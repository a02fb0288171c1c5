import { createReferenceServer } from '@parley/reference-server';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Without a `clock` option the proxy's deadlines are bare `setTimeout`s (the branch users run):
// timed here with vitest's fake timers, the upstream injected as a fetch (no socket, no real time).
afterEach(() => {
  vi.useRealTimers();
});

/** An upstream fetch that answers only with what `answer` gives, and records each call's signal. */
function upstreamFetch(answer: () => Promise<Response>) {
  const signals: AbortSignal[] = [];
  const fetch = (_url: string, init: RequestInit) => {
    const signal = init.signal as AbortSignal;
    signals.push(signal);
    return new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason));
      answer().then(resolve, reject);
    });
  };
  return { fetch, signals };
}

/** Waits (event loop turns, not time) until the proxy called the upstream: its request path is loaded lazily. */
async function upstreamCalled(signals: readonly AbortSignal[]): Promise<void> {
  while (signals.length === 0) await new Promise((resolve) => setImmediate(resolve));
}

const request = (path: string, method = 'GET') =>
  new Request(`http://proxy.test${path}`, {
    method,
    headers: { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });

describe('the proxy deadline on the real clock', () => {
  it('a silent upstream is 504 upstream_timeout after timeoutMs, and not a millisecond before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const upstream = upstreamFetch(() => new Promise<Response>(() => {}));
    const proxy = createReferenceServer({
      upstream: { url: 'http://upstream.test', timeoutMs: 5_000, fetch: upstream.fetch, log: () => {} },
    });
    let answered: Response | undefined;
    const pending = proxy.fetch(request('/v1/sessions')).then((response) => {
      answered = response;
    });
    await upstreamCalled(upstream.signals);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(answered).toBeUndefined();
    expect(upstream.signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(answered?.status).toBe(504);
    expect((await (answered as Response).json()).error.code).toBe('upstream_timeout');
    // The upstream request was ended with the timeout.
    expect(upstream.signals[0]?.aborted).toBe(true);
    expect(proxy.proxy?.report().timeouts).toBe(1);
  });

  it('a timeoutMs past what one timer can hold (2^31 - 1 ms, about 24.8 days) waits that long: no 504 after 1 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const upstream = upstreamFetch(() => new Promise<Response>(() => {}));
    const timeoutMs = 2 ** 31 + 1_000;
    const proxy = createReferenceServer({
      upstream: { url: 'http://upstream.test', timeoutMs, fetch: upstream.fetch, log: () => {} },
    });
    let answered: Response | undefined;
    const pending = proxy.fetch(request('/v1/sessions')).then((response) => {
      answered = response;
    });
    await upstreamCalled(upstream.signals);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(timeoutMs - 1_001);
    expect(answered).toBeUndefined();
    expect(upstream.signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(answered?.status).toBe(504);
  });

  it('a streamed reply whose upstream goes silent is cut after timeoutMs without a byte, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const upstream = upstreamFetch(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"sessionId":"sess_1","events":[\n'));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const lines: string[] = [];
    const proxy = createReferenceServer({
      upstream: {
        url: 'http://upstream.test',
        timeoutMs: 5_000,
        fetch: upstream.fetch,
        log: (line) => lines.push(line),
      },
    });
    const response = await proxy.fetch(request('/v1/messages/sess_1/stream', 'POST'));
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    let ended: string | undefined;
    const rest = reader.read().then(
      () => {
        ended = 'read';
      },
      () => {
        ended = 'failed';
      },
    );
    await vi.advanceTimersByTimeAsync(4_999);
    expect(ended).toBeUndefined();
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await rest;
    expect(ended).toBe('failed');
    expect(lines).toEqual([
      '[parley] proxy: the upstream http://upstream.test sent nothing for 5000 ms in POST /v1/messages/sess_1/stream: the stream was cut',
    ]);
    expect(upstream.signals[0]?.aborted).toBe(true);
  });
});
