import { CreateSessionResponseSchema, ListSessionsResponseSchema } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';

describe('sessions', () => {
  it('creating a session answers 201 with its sessionId', async () => {
    const { call } = harness();
    const res = await call('POST', '/v1/sessions', { customizations: { agentId: 'default' } });
    expect(res.status).toBe(201);
    expect(CreateSessionResponseSchema.parse(res.body).sessionId).toMatch(/^sess_/);
  });

  it.each([
    ['no body', undefined, undefined],
    ['an empty body', undefined, ''],
    ['{}', {}, undefined],
    ['{"customizations":{}}', { customizations: {} }, undefined],
    ['the Simple variant', { customizations: { agentId: 'weather', product: 'demo' } }, undefined],
    [
      'the Full variant',
      { customizations: { model: 'parley-stand-in-1', extensions: { mcpProviders: ['erp'] } } },
      undefined,
    ],
    [
      'the Minimal variant',
      { customizations: { sessionData: { any: ['json', 1] }, extensions: { rag: { maxResults: 3 } } } },
      undefined,
    ],
  ])('a session can be created with %s', async (_name, body, rawBody) => {
    const { call } = harness();
    const res = await call('POST', '/v1/sessions', body, rawBody === undefined ? {} : { rawBody });
    expect(res.status, res.text).toBe(201);
  });

  it('agentId and model together are a 400 invalid_request', async () => {
    const { call } = harness();
    const error = expectError(
      await call('POST', '/v1/sessions', {
        customizations: { agentId: 'default', model: 'parley-stand-in-1' },
      }),
      400,
      'invalid_request',
    );
    expect(error.message).toContain('customizations.model');
  });

  it('sessionData with an agentId is a 400 invalid_request (Minimal variant only)', async () => {
    const { call } = harness();
    expectError(
      await call('POST', '/v1/sessions', { customizations: { agentId: 'default', sessionData: 1 } }),
      400,
      'invalid_request',
    );
  });

  it('an unknown agentId, model or provider is a 400 with its own code', async () => {
    const { call } = harness();
    expectError(
      await call('POST', '/v1/sessions', { customizations: { agentId: 'nope' } }),
      400,
      'unknown_agent',
    );
    expectError(
      await call('POST', '/v1/sessions', { customizations: { model: 'nope' } }),
      400,
      'unknown_model',
    );
    expectError(
      await call('POST', '/v1/sessions', {
        customizations: { extensions: { mcpProviders: ['erp', 'crm'] } },
      }),
      400,
      'unknown_provider',
    );
  });

  it('the agent, model and provider catalogues can be replaced', async () => {
    const { call } = harness({
      agents: { mine: { systemPrompt: 'x' } },
      models: ['m1'],
      providers: ['crm'],
      extensions: false,
    });
    expect((await call('POST', '/v1/sessions', { customizations: { agentId: 'mine' } })).status).toBe(201);
    expect((await call('POST', '/v1/sessions', { customizations: { model: 'm1' } })).status).toBe(201);
    expect(
      (await call('POST', '/v1/sessions', { customizations: { extensions: { mcpProviders: ['crm'] } } }))
        .status,
    ).toBe(201);
    expectError(
      await call('POST', '/v1/sessions', { customizations: { agentId: 'weather' } }),
      400,
      'unknown_agent',
    );
  });

  it('a tool definition whose name differs from its key is a 400 naming the field', async () => {
    const { call } = harness();
    const error = expectError(
      await call('POST', '/v1/sessions', {
        customizations: {
          extensions: {
            tools: { weather: { name: 'other', description: 'd', requestArgs: { type: 'object' } } },
          },
        },
      }),
      400,
      'invalid_request',
    );
    expect(error.message).toContain('customizations.extensions.tools.weather.name');
  });

  it('listing returns 200 with the caller’s own sessions, newest first, even within one millisecond', async () => {
    const { call, createSession, clock } = harness();
    const first = await createSession();
    const second = await createSession();
    await clock.advance(5);
    const third = await createSession();
    const res = await call('GET', '/v1/sessions');
    expect(res.status).toBe(200);
    const { sessions } = ListSessionsResponseSchema.parse(res.body);
    expect(sessions.map((s) => s.sessionId)).toEqual([third, second, first]);
    expect(sessions[0]?.createdAt).toBe(1_000_005);
  });

  it('a user sees only the sessions it created', async () => {
    const { server } = harness({
      users: [
        { name: 'alice', token: 'a' },
        { name: 'bob', token: 'b' },
      ],
    });
    const as = (token: string) => (method: string, path: string) =>
      server.fetch(new Request(`http://x${path}`, { method, headers: { authorization: `Bearer ${token}` } }));
    const created = (await (await as('a')('POST', '/v1/sessions')).json()) as { sessionId: string };
    const aliceList = (await (await as('a')('GET', '/v1/sessions')).json()) as { sessions: unknown[] };
    const bobList = (await (await as('b')('GET', '/v1/sessions')).json()) as { sessions: unknown[] };
    expect(aliceList.sessions).toHaveLength(1);
    expect(bobList.sessions).toEqual([]);
    expect((await as('b')('DELETE', `/v1/sessions/${created.sessionId}`)).status).toBe(404);
  });

  it('deleting answers 204 with no body and cascades to messages and tool calls', async () => {
    const { call, createSession, send } = harness();
    const sessionId = await createSession();
    const reply = await send(sessionId, '/tool get_weather {"city":"Paris"}');
    const requestId = reply.pendingTools[0]?.requestId;
    const res = await call('DELETE', `/v1/sessions/${sessionId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await call('GET', `/v1/messages/${sessionId}`), 404, 'session_not_found');
    expectError(await call('GET', `/v1/tools/request/${sessionId}/${requestId}`), 404, 'session_not_found');
    expectError(
      await call('POST', `/v1/tools/request/${sessionId}/${requestId}/heartbeat`, {
        state: 'PROCESSING',
        heartbeat: 1,
      }),
      404,
      'session_not_found',
    );
    expectError(await call('POST', `/v1/messages/${sessionId}`, { content: 'hi' }), 404, 'session_not_found');
    expect((await call('GET', '/v1/sessions')).body.sessions).toEqual([]);
  });

  it('deleting a missing session is a 404 and a deleted session cannot be deleted again', async () => {
    const { call, createSession } = harness();
    expectError(await call('DELETE', '/v1/sessions/sess_missing'), 404, 'session_not_found');
    const sessionId = await createSession();
    expect((await call('DELETE', `/v1/sessions/${sessionId}`)).status).toBe(204);
    expectError(await call('DELETE', `/v1/sessions/${sessionId}`), 404, 'session_not_found');
  });

  it('reset() deletes every session', async () => {
    const { server, createSession } = harness();
    await createSession();
    expect(server.sessionCount).toBe(1);
    server.reset();
    expect(server.sessionCount).toBe(0);
  });
});
