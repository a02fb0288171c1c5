import {
  BadRequestError,
  type CreateSessionParams,
  type Customizations,
  NotFoundError,
  type ToolDefinition,
} from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { expectAPIError, requestIdOf } from './assertions.js';
import { capabilities, NEEDS_DIRECTIVES, targets, useTarget } from './target.js';

/** Bodies the SDK's types forbid, sent anyway to test the server. */
const unchecked = (body: unknown) => body as CreateSessionParams;

const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather of a city.',
  requestArgs: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe.each(targets())('sessions [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  it('create returns a session id for the Simple, Full and Minimal variants and for no body', async () => {
    const { clientA, catalogue } = target;
    const bodies: (CreateSessionParams | undefined)[] = [
      { customizations: { agentId: catalogue.agentId } },
      { customizations: { agentId: catalogue.agentId, product: 'contract', extensions: {} } },
      { customizations: { model: catalogue.model, extensions: { tools: { get_weather: weatherTool } } } },
      { customizations: { sessionData: { plan: 'pro', nested: [1, 2] } } },
      { customizations: { extensions: { mcpProviders: [catalogue.provider] } } },
      { customizations: {} },
      {},
      undefined,
    ];
    const ids = new Set<string>();
    for (const body of bodies) {
      const { sessionId } = await clientA.sessions.create(body);
      expect(sessionId).toEqual(expect.any(String));
      expect(sessionId).not.toBe('');
      ids.add(sessionId);
    }
    expect(ids.size).toBe(bodies.length);
  });

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('a Minimal or body-less session resolves to the default agent at message time', async () => {
      const { clientA } = target;
      for (const body of [undefined, { customizations: { sessionData: 'anything' } }]) {
        const { sessionId } = await clientA.sessions.create(body);
        const reply = await clientA.messages.send(sessionId, {
          content: '/say Hello from the default agent.',
        });
        expect(reply.stopReason).toBe('end_turn');
        expect(reply.messages.at(-1)?.role).toBe('assistant');
      }
    });
  });

  it('list shows only the caller’s own sessions, newest first, with createdAt', async () => {
    const { clientA, clientB } = target;
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) mine.push((await clientA.sessions.create()).sessionId);
    const theirs = (await clientB.sessions.create()).sessionId;

    const listA = await clientA.sessions.list();
    const idsA = listA.map((s) => s.sessionId);
    expect(idsA).not.toContain(theirs);
    // Newest first: the three sessions appear in reverse creation order.
    expect(idsA.filter((id) => mine.includes(id))).toEqual([...mine].reverse());
    for (const summary of listA) expect(summary.createdAt).toEqual(expect.any(Number));
    const createdAt = listA.map((s) => s.createdAt);
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));

    const idsB = (await clientB.sessions.list()).map((s) => s.sessionId);
    expect(idsB).toContain(theirs);
    for (const id of mine) expect(idsB).not.toContain(id);
  });

  it('agentId together with model is a 400 BadRequestError', async () => {
    const { clientA, catalogue } = target;
    await expectAPIError(
      clientA.sessions.create(
        unchecked({ customizations: { agentId: catalogue.agentId, model: catalogue.model } }),
      ),
      BadRequestError,
      { status: 400, code: 'invalid_request' },
    );
  });

  it('sessionData with agentId or with model is a 400 (Minimal variant only)', async () => {
    const { clientA, catalogue } = target;
    for (const customizations of [
      { agentId: catalogue.agentId, sessionData: {} },
      { model: catalogue.model, sessionData: {} },
    ]) {
      await expectAPIError(clientA.sessions.create(unchecked({ customizations })), BadRequestError, {
        status: 400,
        code: 'invalid_request',
      });
    }
  });

  it('an unknown field (a typo such as agentID) is a 400, not silently ignored', async () => {
    const { clientA } = target;
    const error = await expectAPIError(
      clientA.sessions.create(unchecked({ customizations: { agentID: 'weather' } })),
      BadRequestError,
      { status: 400, code: 'invalid_request' },
    );
    expect(error.message).toContain('400 invalid_request');
  });

  it('an unknown agent, model or provider is a 400 with its own code', async () => {
    const { clientA } = target;
    const cases: [Customizations, string][] = [
      [{ agentId: 'no-such-agent-contract' }, 'unknown_agent'],
      [{ model: 'no-such-model-contract' }, 'unknown_model'],
      [{ extensions: { mcpProviders: ['no-such-provider-contract'] } }, 'unknown_provider'],
    ];
    for (const [customizations, code] of cases) {
      await expectAPIError(clientA.sessions.create({ customizations }), BadRequestError, {
        status: 400,
        code,
      });
    }
  });

  it('a tool definition whose name differs from its key, or whose requestArgs is not an object schema, is a 400', async () => {
    const { clientA } = target;
    const bad = [
      { get_weather: { ...weatherTool, name: 'other_name' } },
      { get_weather: { ...weatherTool, requestArgs: { type: 'string' } } },
      { 'bad name!': { ...weatherTool, name: 'bad name!' } },
    ];
    for (const tools of bad) {
      await expectAPIError(
        clientA.sessions.create(unchecked({ customizations: { extensions: { tools } } })),
        BadRequestError,
        { status: 400, code: 'invalid_request' },
      );
    }
  });

  it('delete answers 204 and removes the session from the list', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    await expect(clientA.sessions.delete(sessionId)).resolves.toBeUndefined();
    expect((await clientA.sessions.list()).map((s) => s.sessionId)).not.toContain(sessionId);
  });

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('delete cascades: the session’s messages and tool calls are 404 afterwards', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool lookup {"q":"x"}' });
      const requestId = requestIdOf(reply);
      await clientA.sessions.delete(sessionId);

      const missing = { status: 404, code: 'session_not_found' };
      await expectAPIError(clientA.messages.export(sessionId), NotFoundError, missing);
      await expectAPIError(clientA.messages.send(sessionId, { content: 'hi' }), NotFoundError, missing);
      await expectAPIError(clientA.tools.get(sessionId, requestId), NotFoundError, missing);
      await expectAPIError(clientA.tools.heartbeat(sessionId, requestId), NotFoundError, missing);
      await expectAPIError(clientA.tools.respond(sessionId, requestId, { ok: true }), NotFoundError, missing);
      // A hard delete is not reversible: deleting again is a 404 too.
      await expectAPIError(clientA.sessions.delete(sessionId), NotFoundError, missing);
    });
  });

  it('deleting another user’s session is a NotFoundError exactly like a missing one, and deletes nothing', async () => {
    const { clientA, clientB } = target;
    const { sessionId } = await clientA.sessions.create();
    const missingId = `${sessionId}-missing`;
    const foreign = await expectAPIError(clientB.sessions.delete(sessionId), NotFoundError, {
      status: 404,
    });
    const missing = await expectAPIError(clientB.sessions.delete(missingId), NotFoundError, {
      status: 404,
    });
    expect(foreign.code).toBe(missing.code);
    // The messages differ only in the ids they name (each error carries its own request id).
    expect(foreign.message.replaceAll(sessionId, 'ID').replaceAll(`${foreign.requestId}`, 'REQ')).toBe(
      missing.message.replaceAll(missingId, 'ID').replaceAll(`${missing.requestId}`, 'REQ'),
    );
    expect((await clientA.sessions.list()).map((s) => s.sessionId)).toContain(sessionId);
  });
});
