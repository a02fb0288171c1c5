import { turn } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { caller, expectError, harness, USERS } from '../helpers/api.js';

describe('control routes /_parley/', () => {
  it('are 404 route_not_found unless the server has control: true', async () => {
    const h = harness();
    for (const [method, path] of [
      ['GET', '/_parley/health'],
      ['POST', '/_parley/reset'],
      ['GET', '/_parley/journal'],
      ['GET', '/_parley/ui'],
    ] as const) {
      expectError(await h.call(method, path), 404, 'route_not_found');
    }
    expect(h.server.control).toBe(false);
  });

  it('GET /_parley/health answers without authentication', async () => {
    const h = harness({ control: true });
    await h.createSession();
    const res = await h.call('GET', '/_parley/health', undefined, { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', time: 1_000_000, sessions: 1, users: ['demo'] });
  });

  it('POST /_parley/reset deletes every session, the journal, the faults and the script', async () => {
    const h = harness({ control: true });
    await h.createSession();
    h.server.script([turn.text('Scripted.')]);
    h.server.faults.next({ status: 500, match: { path: '/nowhere' } });
    const res = await h.call('POST', '/_parley/reset');
    expect(res.body).toEqual({ reset: 'all' });
    expect(h.server.sessionCount).toBe(0);
    expect(h.server.journal.size).toBe(0);
    expect(h.server.faults.pending).toEqual([]);
    const sessionId = await h.createSession();
    expect((await h.send(sessionId, 'x')).messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'You said: x' },
    ]);
  });

  it('POST /_parley/reset?user=NAME deletes only that user’s sessions and journal entries', async () => {
    const h = harness({ control: true, users: USERS });
    const bob = caller(h.server.fetch, undefined, 'bob-token');
    await h.createSession();
    await bob('POST', '/v1/sessions');
    const res = await h.call('POST', '/_parley/reset?user=bob');
    expect(res.body).toEqual({ reset: 'bob' });
    expect(h.server.sessionCount).toBe(1);
    expect(h.server.journal.entries().map((e) => e.user)).toEqual(['alice']);
    expectError(await h.call('POST', '/_parley/reset?user=carol'), 400, 'invalid_request');
  });

  it('GET /_parley/journal filters by session, path, method and user; DELETE clears it', async () => {
    const h = harness({ control: true });
    const a = await h.createSession();
    const b = await h.createSession();
    await h.send(a, 'one');
    await h.send(b, 'two');
    const bySession = await h.call('GET', `/_parley/journal?session=${a}`);
    expect(
      bySession.body.entries.map((e: { method: string; path: string }) => `${e.method} ${e.path}`),
    ).toEqual(['POST /v1/sessions', `POST /v1/messages/${a}`]);
    const byPath = await h.call(
      'GET',
      `/_parley/journal?path=${encodeURIComponent('/v1/messages/*')}&method=post`,
    );
    expect(byPath.body.entries).toHaveLength(2);
    expect((await h.call('GET', '/_parley/journal?user=nobody')).body.entries).toEqual([]);
    expect((await h.call('DELETE', '/_parley/journal')).status).toBe(204);
    expect((await h.call('GET', '/_parley/journal')).body.entries).toEqual([]);
  });

  it('POST /_parley/faults queues a one-shot fault; GET lists it; DELETE clears', async () => {
    const h = harness({ control: true });
    const posted = await h.call('POST', '/_parley/faults', { status: 503, match: { path: '/v1/sessions' } });
    expect(posted.status).toBe(201);
    expect((await h.call('GET', '/_parley/faults')).body.pending).toEqual([
      { status: 503, match: { path: '/v1/sessions' }, times: 1 },
    ]);
    expect((await h.call('GET', '/v1/sessions')).status).toBe(503);
    expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
    await h.call('POST', '/_parley/faults', { latencyMs: 5 });
    expect((await h.call('DELETE', '/_parley/faults')).status).toBe(204);
    expect(h.server.faults.pending).toEqual([]);
    expectError(await h.call('POST', '/_parley/faults', { status: 99 }), 400, 'invalid_request');
  });

  it('POST /_parley/faults with a match that is not { method?: string, path?: string } is 400 naming it, and later requests are unharmed', async () => {
    const h = harness({ control: true });
    for (const match of [{ method: 5 }, { path: 7 }, { paht: '/v1/sessions' }, 'POST', []]) {
      const res = await h.call('POST', '/_parley/faults', { status: 503, match });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.message).toMatch(/match/);
    }
    expect(h.server.faults.pending).toEqual([]);
    expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
  });

  it('GET /_parley/sessions shows every user’s sessions with messages and tool-call states', async () => {
    const h = harness({ control: true, users: USERS });
    const sessionId = await h.createSession();
    await h.send(sessionId, '/tool get_weather {"city":"Paris"}');
    const bob = caller(h.server.fetch, undefined, 'bob-token');
    await bob('POST', '/v1/sessions');
    const res = await h.call('GET', '/_parley/sessions');
    expect(res.body.sessions.map((s: { user: string }) => s.user)).toEqual(['alice', 'bob']);
    const [alice] = res.body.sessions;
    expect(alice).toMatchObject({ sessionId, busy: false, agentId: 'default' });
    expect(alice.messages).toHaveLength(2);
    expect(alice.toolCalls).toMatchObject([
      { name: 'get_weather', state: 'PENDING', input: { city: 'Paris' } },
    ]);
    expect((await h.call('GET', '/_parley/sessions?user=bob')).body.sessions).toHaveLength(1);
  });

  it('GET /_parley/ui is an HTML page', async () => {
    const h = harness({ control: true });
    const res = await h.server.fetch(new Request('http://parley.test/_parley/ui'));
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toContain('<title>Parley reference server</title>');
  });

  it('an unknown control route is 404 and control requests are not journaled', async () => {
    const h = harness({ control: true });
    expectError(await h.call('GET', '/_parley/nope'), 404, 'route_not_found');
    await h.call('GET', '/_parley/health');
    expect(h.server.journal.size).toBe(0);
  });
});
