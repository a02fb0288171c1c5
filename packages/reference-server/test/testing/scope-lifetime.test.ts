import { turn } from '@parley/reference-server';
import { startServer } from '@parley/reference-server/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, expectError, harness } from '../helpers/api.js';
import { gatedModel } from '../helpers/models.js';

const TEST_ID = 'x-parley-test-id';
const MINUTE = 60_000;

/** A caller whose every request carries `x-parley-test-id: testId`. */
function scoped(call: Call, testId: string): Call {
  return (method, path, body, init = {}) =>
    call(method, path, body, { ...init, headers: { [TEST_ID]: testId, ...init.headers } });
}

/** Moves the wall clock (Date) only: timers stay real, so sockets and streams run as they do. */
function wallClockAhead(ms: number): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a scope lives while its test uses it', () => {
  it('idleness is wall-clock time: a test that moves the server clock past the idle time keeps its sessions', async () => {
    const h = harness({ testScopes: { idleMs: 10 * MINUTE } });
    const a = scoped(h.call, 'a');
    const { sessionId } = (await a('POST', '/v1/sessions')).body;
    await h.clock.advance(11 * MINUTE);
    await scoped(h.call, 'b')('POST', '/v1/sessions');
    expect((await a('GET', `/v1/messages/${sessionId}`)).status).toBe(200);
    expect(h.server.sessionCount).toBe(2);
  });

  it('a full registry refuses a new scope with 503 test_scope_limit_reached naming the limit, and removes none', async () => {
    const h = harness({ testScopes: { max: 2 } });
    const a = scoped(h.call, 'a');
    const { sessionId } = (await a('POST', '/v1/sessions')).body;
    await scoped(h.call, 'b')('POST', '/v1/sessions');
    const error = expectError(
      await scoped(h.call, 'c')('POST', '/v1/sessions'),
      503,
      'test_scope_limit_reached',
    );
    expect(error.details).toEqual({ maxTestScopes: 2 });
    expect(error.message).toContain('testScopes: { max }');
    expect((await a('GET', `/v1/messages/${sessionId}`)).status).toBe(200);
    expect(h.server.sessionCount).toBe(2);
    // The default scope is no test scope: it is never refused.
    expect((await h.call('POST', '/v1/sessions')).status).toBe(201);
  });

  it('a flood of unauthenticated requests makes no scope: they are 401 and a real test keeps its scope and can still start', async () => {
    const h = harness({ control: true, testScopes: { max: 2 } });
    const a = scoped(h.call, 'real test');
    const { sessionId } = (await a('POST', '/v1/sessions')).body;
    for (let i = 0; i < 200; i++) {
      const flood = scoped(h.call, `flood ${i}`);
      expectError(await flood('POST', '/v1/sessions', undefined, { token: 'wrong' }), 401, 'unauthorized');
      expectError(await flood('GET', '/v1/sessions', undefined, { token: null }), 401, 'unauthorized');
      expectError(
        await flood('PUT', '/_parley/script', { turns: [] }, { controlToken: null }),
        401,
        'control_token_required',
      );
    }
    expect(h.server.testScope('flood 0').active).toBe(false);
    expect((await a('GET', `/v1/messages/${sessionId}`)).status).toBe(200);
    expect((await scoped(h.call, 'another real test')('POST', '/v1/sessions')).status).toBe(201);
  });

  it('a scope with a client tool call not settled is never removed: past the idle time its test sends the result and goes on', async () => {
    const h = harness({ testScopes: { max: 1, idleMs: MINUTE } });
    const a = scoped(h.call, 'tool test');
    const { sessionId } = (await a('POST', '/v1/sessions')).body;
    const reply = await a('POST', `/v1/messages/${sessionId}`, {
      content: '/tool get_weather {"city":"Paris"}',
    });
    const requestId = reply.body.pendingTools[0].requestId as string;
    wallClockAhead(5 * MINUTE);
    expectError(await scoped(h.call, 'other test')('POST', '/v1/sessions'), 503, 'test_scope_limit_reached');
    const answered = await a('POST', `/v1/tools/response/${sessionId}/${requestId}`, {
      response: { state: 'COMPLETE', output: { temperature: 21 } },
    });
    expect(answered.status, answered.text).toBeLessThan(300);
    // Settled and idle again: now it goes, and a new test gets its place.
    wallClockAhead(MINUTE);
    expect((await scoped(h.call, 'other test')('POST', '/v1/sessions')).status).toBe(201);
    expectError(await a('GET', '/v1/sessions'), 410, 'test_scope_expired');
  });

  it('reading a scope does not create it: server.testScope(id) reads an empty journal, no faults and the server model', async () => {
    const h = harness({ testScopes: { max: 1 } });
    const handle = h.server.testScope('only read');
    expect(handle.active).toBe(false);
    expect(handle.journal.size).toBe(0);
    expect(handle.faults.pending).toEqual([]);
    expect(handle.model).toBe(h.server.model);
    // Nothing was made: the one place is still free for a test that sends a request.
    expect((await scoped(h.call, 'sender')('POST', '/v1/sessions')).status).toBe(201);
    expect(handle.active).toBe(false);
    // Writing through a handle does make it (here: refused, the registry is full).
    expect(() => handle.script([turn.text('x')])).toThrow(/holds 1 test scopes/);
  });

  it('a scope with a stream in flight (real HTTP) is never removed: past the idle time it is kept, and a new scope is refused instead', async () => {
    const gated = gatedModel();
    const running = await startServer({
      port: 0,
      model: gated.model,
      testScopes: { max: 1, idleMs: MINUTE },
    });
    try {
      const headers = { authorization: 'Bearer parley-demo-token', [TEST_ID]: 'streaming test' };
      const created = await fetch(`${running.url}/v1/sessions`, { method: 'POST', headers });
      const { sessionId } = (await created.json()) as { sessionId: string };
      const stream = await fetch(`${running.url}/v1/messages/${sessionId}/stream`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      });
      expect(stream.status).toBe(200);
      await gated.firstEventSent;
      wallClockAhead(5 * MINUTE);
      const other = await fetch(`${running.url}/v1/sessions`, {
        method: 'POST',
        headers: { ...headers, [TEST_ID]: 'other test' },
      });
      expect(other.status).toBe(503);
      expect(((await other.json()) as { error: { code: string } }).error.code).toBe(
        'test_scope_limit_reached',
      );
      gated.release();
      const body = await stream.text();
      expect(body).not.toContain('was deleted');
      expect(body).toContain('"replyStop"');
      expect(body).toContain('second');
      const again = await fetch(`${running.url}/v1/messages/${sessionId}`, { headers });
      expect(again.status).toBe(200);
    } finally {
      gated.release();
      await running.close();
    }
  });
});

describe('a test never silently gets another model', () => {
  it('after idle expiry (wall clock) the test’s next request is 410 test_scope_expired naming testScopes.idleMs, never the stand-in’s reply', async () => {
    const h = harness({ control: true, testScopes: { idleMs: MINUTE } });
    const a = scoped(h.call, 'slow test');
    expect((await a('PUT', '/_parley/script', { turns: [{ text: 'Scripted.' }] })).status).toBe(200);
    const { sessionId } = (await a('POST', '/v1/sessions')).body;
    wallClockAhead(MINUTE);
    const error = expectError(
      await a('POST', `/v1/messages/${sessionId}`, { content: 'hi' }),
      410,
      'test_scope_expired',
    );
    expect(error.details).toEqual({ testId: 'slow test', idleMs: MINUTE });
    expect(error.message).toContain('testScopes: { idleMs }');
    expectError(await a('POST', '/v1/sessions'), 410, 'test_scope_expired');
    expect(h.server.sessionCount).toBe(0);
    // A control request sets the test up again.
    expect((await a('PUT', '/_parley/script', { turns: [{ text: 'Again.' }] })).status).toBe(200);
    const fresh = (await a('POST', '/v1/sessions')).body.sessionId;
    const reply = await a('POST', `/v1/messages/${fresh}`, { content: 'hi' });
    expect(reply.body.messages.at(-1).content[0].text).toBe('Again.');
  });

  it('after a reset by id (the test’s own act) its next request starts a clean scope: no 410, no script, no session of before', async () => {
    const h = harness({ control: true });
    const a = scoped(h.call, 'a');
    await a('PUT', '/_parley/script', { turns: [{ text: 'Scripted.' }] });
    const before = (await a('POST', '/v1/sessions')).body.sessionId;
    expect((await a('POST', '/_parley/reset')).status).toBe(200);
    expect((await a('GET', `/v1/sessions/${before}`)).status).toBe(404);
    const fresh = (await a('POST', '/v1/sessions')).body.sessionId;
    const reply = await a('POST', `/v1/messages/${fresh}`, { content: 'hi' });
    expect(reply.body.messages.at(-1).content[0].text).not.toBe('Scripted.');
  });

  it('a session whose create was still coming in when its scope was reset is not in the clean scope that follows', async () => {
    const h = harness({ control: true });
    const a = scoped(h.call, 'a');
    let finishBody: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"customizations":'));
        finishBody = () => {
          controller.enqueue(new TextEncoder().encode('{}}'));
          controller.close();
        };
      },
    });
    const create = h.server.fetch(
      new Request('http://parley.test/v1/sessions', {
        method: 'POST',
        headers: {
          authorization: 'Bearer parley-demo-token',
          'content-type': 'application/json',
          [TEST_ID]: 'a',
        },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect((await a('POST', '/_parley/reset')).status).toBe(200);
    finishBody();
    await create;
    // The next request of the test starts the clean scope: the late session is not in it, nor kept.
    expect(await a('GET', '/v1/sessions').then((res) => res.body.sessions)).toEqual([]);
    expect(h.server.sessionCount).toBe(0);
  });

  it('a full reset forgets removed scopes: every test id starts afresh', async () => {
    const h = harness({ testScopes: { idleMs: MINUTE } });
    const a = scoped(h.call, 'a');
    await a('POST', '/v1/sessions');
    wallClockAhead(MINUTE);
    expectError(await a('GET', '/v1/sessions'), 410, 'test_scope_expired');
    h.server.reset();
    expect((await a('GET', '/v1/sessions')).status).toBe(200);
  });
});
