import { AuthenticationError, NotFoundError, type Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { expectAPIError, requestIdOf } from './assertions.js';
import { capabilities, NEEDS_DIRECTIVES, targets, useTarget } from './target.js';

/** One call of every endpoint, on a session and a tool call that may or may not be the caller's. */
function everyEndpoint(client: Parley, sessionId: string, requestId: string) {
  return {
    'sessions.list': () => client.sessions.list(),
    'sessions.create': () => client.sessions.create(),
    'sessions.delete': () => client.sessions.delete(sessionId),
    'messages.send': () => client.messages.send(sessionId, { content: 'hello' }),
    'messages.stream': () => client.messages.stream(sessionId, { content: 'hello' }).finalReply(),
    'messages.export': () => client.messages.export(sessionId),
    'messages.rewind': () => client.messages.rewind(sessionId, 0),
    'tools.heartbeat': () => client.tools.heartbeat(sessionId, requestId),
    'tools.respond': () => client.tools.respond(sessionId, requestId, { ok: true }),
    'tools.fail': () => client.tools.fail(sessionId, requestId, 'failed'),
    'tools.get': () => client.tools.get(sessionId, requestId),
  };
}

/** The endpoints that address a session (all but list and create). */
function sessionEndpoints(client: Parley, sessionId: string, requestId: string) {
  const {
    'sessions.list': _list,
    'sessions.create': _create,
    ...rest
  } = everyEndpoint(client, sessionId, requestId);
  return rest;
}

describe.each(targets())('authentication [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  it('no token is a 401 AuthenticationError on every endpoint (sessions, messages, tools)', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const anonymous = target.client();
    for (const [name, call] of Object.entries(everyEndpoint(anonymous, sessionId, 'tooluse_contract'))) {
      const error = await expectAPIError(call, AuthenticationError, { status: 401, code: 'unauthorized' });
      expect(error.headers.get('www-authenticate'), name).toMatch(/^Bearer/i);
    }
  });

  it('a wrong token is a 401 AuthenticationError on every endpoint (sessions, messages, tools)', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const intruder = target.client({ token: 'contract-wrong-token' });
    for (const call of Object.values(everyEndpoint(intruder, sessionId, 'tooluse_contract'))) {
      await expectAPIError(call, AuthenticationError, { status: 401, code: 'unauthorized' });
    }
  });

  it('a failed authentication changes nothing: the session is still there', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    await expectAPIError(
      target.client({ token: 'contract-wrong-token' }).sessions.delete(sessionId),
      AuthenticationError,
      {
        status: 401,
      },
    );
    expect((await clientA.sessions.list()).map((s) => s.sessionId)).toContain(sessionId);
  });

  it('another user’s session is a 404 on every session endpoint', async () => {
    const { clientA, clientB } = target;
    const { sessionId } = await clientA.sessions.create();
    for (const call of Object.values(sessionEndpoints(clientB, sessionId, 'tooluse_contract'))) {
      await expectAPIError(call, NotFoundError, { status: 404, code: 'session_not_found' });
    }
    // Nothing was deleted or sent by the other user.
    expect(await clientA.messages.export(sessionId)).toEqual([]);
  });

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('another user’s messages and tool call are a 404 with exactly the body a missing one gets', async () => {
      const { clientA, clientB } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool lookup {"q":"secret"}' });
      const requestId = requestIdOf(reply);
      const missingSession = 'sess_contract_missing';
      const foreign = sessionEndpoints(clientB, sessionId, requestId);
      const missing = sessionEndpoints(clientB, missingSession, requestId);
      for (const name of Object.keys(foreign) as (keyof typeof foreign)[]) {
        const a = await expectAPIError(foreign[name], NotFoundError, { status: 404 });
        const b = await expectAPIError(missing[name], NotFoundError, { status: 404 });
        expect(a.code, name).toBe(b.code);
        expect(a.details, name).toEqual(b.details);
        // The messages differ only in the ids they name (each error carries its own request id).
        expect(a.message.replaceAll(sessionId, 'ID').replaceAll(`${a.requestId}`, 'REQ'), name).toBe(
          b.message.replaceAll(missingSession, 'ID').replaceAll(`${b.requestId}`, 'REQ'),
        );
      }
      // The owner's tool call is untouched.
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('PENDING');
    });
  });
});
