import { createReferenceServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { expectError, harness, USERS } from './helpers/api.js';

const ROUTES: Array<[string, string]> = [
  ['GET', '/v1/sessions'],
  ['POST', '/v1/sessions'],
  ['DELETE', '/v1/sessions/sess_x'],
  ['POST', '/v1/messages/sess_x'],
  ['POST', '/v1/messages/sess_x/stream'],
  ['GET', '/v1/messages/sess_x'],
  ['POST', '/v1/messages/sess_x/rewind'],
  ['POST', '/v1/tools/request/sess_x/tooluse_x/heartbeat'],
  ['POST', '/v1/tools/response/sess_x/tooluse_x'],
  ['GET', '/v1/tools/request/sess_x/tooluse_x'],
  ['GET', '/v1/no-such-route'],
];

describe('authentication', () => {
  it.each(ROUTES)(
    '%s %s without a credential is a 401 with WWW-Authenticate: Bearer',
    async (method, path) => {
      const { call } = harness();
      const res = await call(method, path, undefined, { token: null });
      expectError(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    },
  );

  it.each(ROUTES)('%s %s with an unknown token is a 401', async (method, path) => {
    const { call } = harness();
    expectError(await call(method, path, undefined, { token: 'wrong-token' }), 401, 'unauthorized');
  });

  it('authentication is checked before the route: an unknown /v1 path is 401 without a token, 404 with one', async () => {
    const { call } = harness();
    for (const [method, path] of [
      ['GET', '/v1/no-such-route'],
      ['PUT', '/v1/sessions'],
      ['POST', '/v1/messages/sess_x/unknown'],
    ] as const) {
      expectError(await call(method, path, undefined, { token: null }), 401, 'unauthorized');
      expectError(await call(method, path), 404, 'route_not_found');
    }
  });

  it.each(['Basic abc', 'Bearer', 'Bearer  ', 'parley-demo-token', 'Bearer a b'])(
    'a malformed Authorization header (%j) is a 401',
    async (header) => {
      const { call } = harness();
      expectError(
        await call('GET', '/v1/sessions', undefined, { token: null, headers: { authorization: header } }),
        401,
        'unauthorized',
      );
    },
  );

  it('the Bearer scheme is case-insensitive and the token is the configured one', async () => {
    const { call } = harness();
    const res = await call('GET', '/v1/sessions', undefined, {
      token: null,
      headers: { authorization: 'bearer parley-demo-token' },
    });
    expect(res.status).toBe(200);
  });

  it('a bearer token may use every RFC 6750 token character; each user gets their own name', async () => {
    const token = 'AZaz09-._~+/==';
    const h = harness({ users: [...USERS, { name: 'carol', token }] });
    const sessionId = await h.createSession();
    expect((await h.call('GET', `/v1/messages/${sessionId}`, undefined, { token })).status).toBe(404);
    expect((await h.call('GET', '/v1/sessions', undefined, { token })).status).toBe(200);
    expect(h.server.journal.last()?.user).toBe('carol');
  });

  it('a configured token no Authorization header can carry is refused when the server is created', () => {
    for (const token of ['has space', 'p@ss', 'é', '']) {
      expect(() => createReferenceServer({ users: [{ name: 'eve', token }] })).toThrow(
        /User "eve": the token must be a bearer token/,
      );
    }
  });

  it('a token that is a prefix or extension of a valid one is refused', async () => {
    const { call } = harness();
    expectError(
      await call('GET', '/v1/sessions', undefined, { token: 'parley-demo-toke' }),
      401,
      'unauthorized',
    );
    expectError(
      await call('GET', '/v1/sessions', undefined, { token: 'parley-demo-tokenx' }),
      401,
      'unauthorized',
    );
  });

  it('another user’s session, messages and tool calls are 404 with exactly the body a missing one gets', async () => {
    const h = harness({ users: USERS });
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, '/tool lookup {}');
    const requestId = reply.pendingTools[0]?.requestId ?? '';
    const asBob = (method: string, path: string, body?: unknown) =>
      h.call(method, path, body, { token: 'bob-token' });
    const probes: Array<[string, string, unknown]> = [
      ['DELETE', `/v1/sessions/${sessionId}`, undefined],
      ['GET', `/v1/messages/${sessionId}`, undefined],
      ['POST', `/v1/messages/${sessionId}`, { content: 'hi' }],
      ['POST', `/v1/messages/${sessionId}/stream`, { content: 'hi' }],
      ['POST', `/v1/messages/${sessionId}/rewind`, { index: 0 }],
      ['GET', `/v1/tools/request/${sessionId}/${requestId}`, undefined],
      [
        'POST',
        `/v1/tools/request/${sessionId}/${requestId}/heartbeat`,
        { state: 'PROCESSING', heartbeat: 1 },
      ],
      ['POST', `/v1/tools/response/${sessionId}/${requestId}`, { response: { state: 'COMPLETE' } }],
    ];
    // Alice deletes a second session: its id is now "missing", to compare bodies with.
    const missing = await h.createSession();
    await h.call('DELETE', `/v1/sessions/${missing}`);
    for (const [method, path, body] of probes) {
      const foreign = await asBob(method, path, body);
      const absent = await asBob(method, path.replace(sessionId, missing), body);
      expectError(foreign, 404, 'session_not_found');
      expect(foreign.body.error.message.replace(sessionId, 'ID')).toBe(
        absent.body.error.message.replace(missing, 'ID'),
      );
      expect(Object.keys(foreign.body.error)).toEqual(Object.keys(absent.body.error));
    }
    // Nothing happened to Alice's session.
    expect((await h.call('GET', `/v1/tools/request/${sessionId}/${requestId}`)).body.state).toBe('PENDING');
  });

  it('every response carries an x-request-id header, errors included', async () => {
    const { call, createSession } = harness();
    const ids = new Set<string>();
    for (const res of [
      await call('GET', '/v1/sessions'),
      await call('GET', '/v1/sessions', undefined, { token: null }),
      await call('GET', '/nowhere'),
      await call('DELETE', `/v1/sessions/${await createSession()}`),
    ]) {
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^req_/);
      ids.add(id ?? '');
    }
    expect(ids.size).toBe(4);
  });
});
