import { RateLimitError } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { harness, messageText } from './harness.js';

// The SDK waits on `setTimeout`: fake only the timers, so the in-process server (on its own
// ManualClock) and the event loop (`setImmediate`) run normally.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets in-process requests run (no timers involved) until `predicate` holds. */
async function until(predicate: () => boolean, turns = 1_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (predicate()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`Condition not met after ${turns} event-loop turns`);
}

const QUOTA = { quotas: [{ product: 'p', messagesPerMinute: 1 }] };

function setup(clientOptions: { maxRetries?: number } = {}) {
  const s = harness(QUOTA, clientOptions);
  // Buffered sends and resumes: `POST /v1/messages/:sessionId`.
  const sends = () => s.responses.filter((r) => /^POST \/v1\/messages\/[^/]+$/.test(r.request));
  return { ...s, sends };
}

describe('per-product quotas, through the SDK', () => {
  test('a send over quota is answered 429 with Retry-After; the SDK retries it after Retry-After and succeeds once the window frees', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({ customizations: { product: 'p' } });
    await s.client.messages.send(sessionId, { content: 'one' });
    await s.clock.advance(20_000); // the first send leaves the window in 40 s

    let settled = false;
    const pending = s.client.messages.send(sessionId, { content: 'two' }).finally(() => {
      settled = true;
    });
    await until(() => s.sends().length === 2);
    expect(s.sends()[1]).toMatchObject({ status: 429, retryAfter: '40' });

    // The window frees on the server; the SDK still waits the full Retry-After before sending again.
    await s.clock.advance(40_000);
    await vi.advanceTimersByTimeAsync(39_999);
    expect(s.sends()).toHaveLength(2);
    expect(settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    const reply = await pending;
    expect(s.sends().map((r) => r.status)).toEqual([200, 429, 200]);
    expect(reply.stopReason).toBe('end_turn');
    expect(messageText(reply.messages.at(-1))).toBe('You said: two');
    // The refused attempt stored nothing: the conversation has each message once.
    const exported = await s.client.messages.export(sessionId);
    expect(exported.map((m) => messageText(m))).toEqual(['one', 'You said: one', 'two', 'You said: two']);
  });

  test('retries run out while the window is still full: RateLimitError with retryAfterMs', async () => {
    const s = setup({ maxRetries: 1 });
    const { sessionId } = await s.client.sessions.create({ customizations: { product: 'p' } });
    await s.client.messages.send(sessionId, { content: 'one' });
    await s.clock.advance(30_000);

    const failure = s.client.messages.send(sessionId, { content: 'two' }).catch((e: unknown) => e);
    await until(() => s.sends().length === 2);
    // The server clock does not move: the retry, after 30 s, is refused again (still 30 s to go).
    await vi.advanceTimersByTimeAsync(30_000);
    const error = await failure;
    expect(s.sends().map((r) => r.status)).toEqual([200, 429, 429]);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'quota_exceeded', retryAfterMs: 30_000 });
  });

  test('with maxRetries 0 the caller gets a RateLimitError with retryAfterMs and the quota details', async () => {
    const s = setup({ maxRetries: 0 });
    const { sessionId } = await s.client.sessions.create({ customizations: { product: 'p' } });
    await s.client.messages.send(sessionId, { content: 'one' });
    await s.clock.advance(15_000);
    const error = await s.client.messages.send(sessionId, { content: 'two' }).catch((e: unknown) => e);
    expect(error instanceof RateLimitError).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      code: 'quota_exceeded',
      retryAfterMs: 45_000,
      details: { product: 'p', messagesPerMinute: 1, retryAfterSeconds: 45 },
    });
    expect(s.sends().map((r) => r.status)).toEqual([200, 429]);
    // Nothing was stored, and the refused send did not count: once the window frees, one send passes.
    await s.clock.advance(45_000);
    const reply = await s.client.messages.send(sessionId, { content: 'three' });
    expect(reply.messages.map((m) => m.index)).toEqual([2, 3]);
  });

  test('the quota is per product, shared by its sessions', async () => {
    const s = setup({ maxRetries: 0 });
    const a = await s.client.sessions.create({ customizations: { product: 'p' } });
    const b = await s.client.sessions.create({ customizations: { product: 'p' } });
    await s.client.messages.send(a.sessionId, { content: 'one' });
    await expect(s.client.messages.send(b.sessionId, { content: 'two' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
  });

  test('a resume counts as a send', async () => {
    const s = setup({ maxRetries: 0 });
    const { sessionId } = await s.client.sessions.create({
      customizations: {
        product: 'p',
        extensions: {
          tools: { ping: { name: 'ping', description: 'Ping', requestArgs: { type: 'object' } } },
        },
      },
    });
    const reply = await s.client.messages.send(sessionId, { content: '/tool ping {}' });
    await s.client.tools.respond(sessionId, reply.pendingTools[0]!.requestId, { pong: true });
    await expect(s.client.messages.send(sessionId, {})).rejects.toBeInstanceOf(RateLimitError);
  });

  test('sessions without a product, or with a product no rule names, are not limited', async () => {
    const s = setup({ maxRetries: 0 });
    const none = await s.client.sessions.create();
    const other = await s.client.sessions.create({ customizations: { product: 'other' } });
    for (let i = 0; i < 5; i++) {
      await s.client.messages.send(none.sessionId, { content: `n${i}` });
      await s.client.messages.send(other.sessionId, { content: `o${i}` });
    }
    expect(s.sends().every((r) => r.status === 200)).toBe(true);
    expect(s.sends()).toHaveLength(10);
  });

  test('quotas are off by default', async () => {
    const s = harness({}, { maxRetries: 0 });
    const { sessionId } = await s.client.sessions.create({ customizations: { product: 'p' } });
    for (let i = 0; i < 5; i++) await s.client.messages.send(sessionId, { content: `m${i}` });
    expect(s.responses.map((r) => r.status).filter((status) => status === 429)).toEqual([]);
    expect((await s.client.messages.export(sessionId)).filter((m) => m.role === 'user')).toHaveLength(5);
  });

  test('a streamed send over quota is retried after Retry-After too', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({ customizations: { product: 'p' } });
    await s.client.messages.send(sessionId, { content: 'one' });
    await s.clock.advance(50_000);
    const stream = s.client.messages.stream(sessionId, { content: '/say streamed' });
    const text = stream.finalText();
    await until(() => s.responses.some((r) => r.status === 429));
    expect(s.responses.find((r) => r.status === 429)?.retryAfter).toBe('10');
    await s.clock.advance(10_000);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(s.responses.filter((r) => r.request.endsWith('/stream'))).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(text).resolves.toBe('streamed');
  });
});
