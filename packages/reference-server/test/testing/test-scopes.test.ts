import { turn } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { BASE_URL, type Call, caller, DEMO_TOKEN, expectError, harness, USERS } from '../helpers/api.js';

const TEST_ID = 'x-parley-test-id';

/** A caller whose every request carries `x-parley-test-id: testId`. */
function scoped(call: Call, testId: string): Call {
  return (method, path, body, init = {}) =>
    call(method, path, body, { ...init, headers: { [TEST_ID]: testId, ...init.headers } });
}

describe('test scopes (x-parley-test-id)', () => {
  it('a script set under a test id answers only that test’s sessions; other tests and the default scope keep theirs', async () => {
    const h = harness({ control: true });
    const a = scoped(h.call, 'suite > test a');
    const b = scoped(h.call, 'suite > test b');
    expect((await a('PUT', '/_parley/script', { turns: [{ text: 'A speaks.' }] })).status).toBe(200);
    h.server.testScope('suite > test b').script([turn.text('B speaks.')]);
    const reply = async (call: Call) => {
      const { sessionId } = (await call('POST', '/v1/sessions')).body;
      const res = await call('POST', `/v1/messages/${sessionId}`, { content: 'hi' });
      return res.body.messages.at(-1).content[0].text;
    };
    expect(await reply(a)).toBe('A speaks.');
    expect(await reply(b)).toBe('B speaks.');
    expect(await reply(h.call)).toBe('You said: hi');
  });

  it('a session is found only with its own test id: another test or no header gets 404 session_not_found', async () => {
    const h = harness();
    const a = scoped(h.call, 'a');
    const { sessionId } = (await a('POST', '/v1/sessions')).body;
    expect((await a('GET', `/v1/messages/${sessionId}`)).status).toBe(200);
    expectError(await scoped(h.call, 'b')('GET', `/v1/messages/${sessionId}`), 404, 'session_not_found');
    expectError(await h.call('GET', `/v1/messages/${sessionId}`), 404, 'session_not_found');
    expectError(await h.call('DELETE', `/v1/sessions/${sessionId}`), 404, 'session_not_found');
    expect(
      (await a('GET', '/v1/sessions')).body.sessions.map((s: { sessionId: string }) => s.sessionId),
    ).toEqual([sessionId]);
    expect((await h.call('GET', '/v1/sessions')).body.sessions).toEqual([]);
  });

  it('user and scope must both match: another user with the same test id does not see the session', async () => {
    const h = harness({ users: USERS });
    const alice = scoped(h.call, 't');
    const bob = scoped(caller(h.server.fetch, BASE_URL, 'bob-token'), 't');
    const { sessionId } = (await alice('POST', '/v1/sessions')).body;
    expectError(await bob('GET', `/v1/messages/${sessionId}`), 404, 'session_not_found');
  });

  it('a queued fault and chaos of a test hit only that test’s requests', async () => {
    const h = harness({ control: true });
    const a = scoped(h.call, 'a');
    const b = scoped(h.call, 'b');
    expect(
      (await a('POST', '/_parley/faults', { status: 503, match: { path: '/v1/sessions' } })).status,
    ).toBe(201);
    h.server.testScope('b').faults.chaos({ rate: 1, seed: 7, kinds: ['status'], match: { method: 'GET' } });
    expect((await h.call('POST', '/v1/sessions')).status).toBe(201);
    expect((await b('POST', '/v1/sessions')).status).toBe(201);
    expect((await a('POST', '/v1/sessions')).status).toBe(503);
    expect((await a('POST', '/v1/sessions')).status).toBe(201);
    expect((await b('GET', '/v1/sessions')).status).toBe(503);
    expect((await a('GET', '/v1/sessions')).status).toBe(200);
    expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
    expect((await b('GET', '/_parley/faults')).body.pending).toEqual([]);
  });

  it('the journal of a test holds only its requests, and the default journal none of them', async () => {
    const h = harness({ control: true });
    const a = scoped(h.call, 'a');
    await a('POST', '/v1/sessions');
    await scoped(h.call, 'b')('POST', '/v1/sessions');
    await h.call('GET', '/v1/sessions');
    const journal = (await a('GET', '/_parley/journal')).body;
    expect(journal.entries.map((e: { method: string; path: string }) => `${e.method} ${e.path}`)).toEqual([
      'POST /v1/sessions',
    ]);
    expect(h.server.journal.entries().map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/sessions']);
    expect(h.server.testScope('b').journal.size).toBe(1);
  });

  it('reset with a test id clears that test only: its sessions, journal, faults and script', async () => {
    const h = harness({ control: true });
    const a = scoped(h.call, 'a');
    const b = scoped(h.call, 'b');
    await a('POST', '/v1/sessions');
    const kept = (await b('POST', '/v1/sessions')).body.sessionId;
    await h.call('POST', '/v1/sessions');
    h.server.testScope('a').script([turn.text('A')]);
    h.server.testScope('a').faults.next({ status: 500, match: { path: '/nowhere' } });
    expect((await a('POST', '/_parley/reset')).body).toEqual({ reset: 'all' });
    expect(h.server.sessionCount).toBe(2);
    expect((await a('GET', '/_parley/sessions')).body.sessions).toEqual([]);
    expect((await a('GET', '/_parley/faults')).body.pending).toEqual([]);
    expect(
      (await b('GET', '/_parley/sessions')).body.sessions.map((s: { sessionId: string }) => s.sessionId),
    ).toEqual([kept]);
    expect(h.server.testScope('a').model).toBe(h.server.model);
    h.server.reset({ testId: 'b' });
    expect(h.server.sessionCount).toBe(1);
  });

  it('reset without a test id resets everything, every test scope included', async () => {
    const h = harness({ control: true });
    await scoped(h.call, 'a')('POST', '/v1/sessions');
    await h.call('POST', '/v1/sessions');
    await h.call('POST', '/_parley/reset');
    expect(h.server.sessionCount).toBe(0);
    expect(h.server.testScope('a').journal.size).toBe(0);
  });

  it('the SDK’s headers option scopes a client to a test', async () => {
    const h = harness();
    h.server.testScope('sdk test').script([turn.text('Scoped.')]);
    const client = new Parley({
      baseUrl: BASE_URL,
      token: DEMO_TOKEN,
      fetch: h.server.fetch,
      headers: { [TEST_ID]: 'sdk test' },
    });
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: 'hi' });
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Scoped.' }]);
    expect(await client.sessions.list()).toHaveLength(1);
    expect(h.server.journal.size).toBe(0);
  });

  it('a malformed test id is 400 invalid_test_id: empty, too long, a control character', async () => {
    const h = harness({ control: true });
    for (const value of ['', '   ', 'x'.repeat(513), 'a\u0001b', 'a\u007fb']) {
      const error = expectError(await scoped(h.call, value)('POST', '/v1/sessions'), 400, 'invalid_test_id');
      expect(error.message).toContain('x-parley-test-id');
      expectError(await scoped(h.call, value)('GET', '/_parley/journal'), 400, 'invalid_test_id');
    }
    expect(
      (await scoped(h.call, `${'x'.repeat(512)}\ttab`.slice(0, 512))('POST', '/v1/sessions')).status,
    ).toBe(201);
    expect(h.server.sessionCount).toBe(1);
    // Probes ignore the header: they never make a scope.
    expect((await scoped(h.call, '')('GET', '/healthz')).status).toBe(200);
  });

  // Bounds, idle expiry and what follows a removal: scope-lifetime.test.ts.
  it('scopes bounds are checked when the server is created', () => {
    expect(() => harness({ testScopes: { max: 0 } })).toThrow(/max test scopes must be an integer >= 1/);
    expect(() => harness({ testScopes: { idleMs: -1 } })).toThrow(/idle ms must be an integer >= 1/);
  });

  it('maxSessions bounds the sessions of every user and scope: 503 session_limit_reached beyond', async () => {
    const h = harness({ maxSessions: 2 });
    await h.call('POST', '/v1/sessions');
    const { sessionId } = (await scoped(h.call, 'a')('POST', '/v1/sessions')).body;
    const error = expectError(await h.call('POST', '/v1/sessions'), 503, 'session_limit_reached');
    expect(error.details).toEqual({ maxSessions: 2 });
    await scoped(h.call, 'a')('DELETE', `/v1/sessions/${sessionId}`);
    expect((await h.call('POST', '/v1/sessions')).status).toBe(201);
  });
});
