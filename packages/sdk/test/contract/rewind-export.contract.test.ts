import { BadRequestError, ConflictError, NotFoundError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { expectAPIError, requestIdOf, toolResultsOf } from './assertions.js';
import { capabilities, NEEDS_DIRECTIVES, targets, useTarget } from './target.js';

describe.each(targets())('rewind and export [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  it('export returns the conversation in index order; a new session exports []', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    expect(await clientA.messages.export(sessionId)).toEqual([]);
    const first = await clientA.messages.send(sessionId, { content: 'one' });
    const second = await clientA.messages.send(sessionId, { content: 'two' });
    expect(await clientA.messages.export(sessionId)).toEqual([...first.messages, ...second.messages]);
  });

  it('rewind retracts the user message and everything after it; export hides retracted messages unless includeDeleted', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const first = await clientA.messages.send(sessionId, { content: 'keep me' });
    const second = await clientA.messages.send(sessionId, { content: 'retract me' });
    const cut = second.messages[0]?.index ?? -1;
    const rewound = await clientA.messages.rewind(sessionId, cut);
    expect(rewound).toEqual({
      sessionId,
      retracted: second.messages.map((m) => m.index),
      abandonedToolCalls: [],
    });

    expect(await clientA.messages.export(sessionId)).toEqual(first.messages);
    expect(await clientA.messages.export(sessionId, { includeDeleted: false })).toEqual(first.messages);
    const all = await clientA.messages.export(sessionId, { includeDeleted: true });
    expect(all.map((m) => m.index)).toEqual([...first.messages, ...second.messages].map((m) => m.index));
    for (const message of all.slice(first.messages.length)) {
      expect(message.deletedAt).toEqual(expect.any(Number));
    }
    // Soft delete: the retracted messages keep their content.
    expect(all.slice(first.messages.length).map((m) => m.content)).toEqual(
      second.messages.map((m) => m.content),
    );
  });

  it('rewind to a non-user message is a 400 invalid_rewind_target', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const reply = await clientA.messages.send(sessionId, { content: 'hello' });
    const assistant = reply.messages.find((m) => m.role === 'assistant');
    if (!assistant) throw new Error('no assistant message');
    await expectAPIError(clientA.messages.rewind(sessionId, assistant.index), BadRequestError, {
      status: 400,
      code: 'invalid_rewind_target',
    });
  });

  it('rewind to an index with no live message (missing or already retracted) is a 404 message_not_found', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const reply = await clientA.messages.send(sessionId, { content: 'hello' });
    const notFound = { status: 404, code: 'message_not_found' };
    await expectAPIError(clientA.messages.rewind(sessionId, 999), NotFoundError, notFound);
    await clientA.messages.rewind(sessionId, reply.messages[0]?.index ?? 0);
    await expectAPIError(
      clientA.messages.rewind(sessionId, reply.messages[0]?.index ?? 0),
      NotFoundError,
      notFound,
    );
  });

  it('a negative or fractional rewind index is a 400', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    await clientA.messages.send(sessionId, { content: 'hello' });
    for (const index of [-1, 0.5]) {
      await expectAPIError(clientA.messages.rewind(sessionId, index), BadRequestError, {
        status: 400,
        code: 'invalid_request',
      });
    }
  });

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('rewind abandons the open tool calls it cuts off; the conversation goes on', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool a {}\n/tool b {}' });
      const [a, b] = [requestIdOf(reply, 0), requestIdOf(reply, 1)];
      await clientA.tools.heartbeat(sessionId, a);
      const rewound = await clientA.messages.rewind(sessionId, reply.messages[0]?.index ?? 0);
      expect([...rewound.abandonedToolCalls].sort()).toEqual([a, b].sort());
      for (const requestId of [a, b]) {
        expect((await clientA.tools.get(sessionId, requestId)).state).toBe('ABANDONED');
        await expectAPIError(clientA.tools.heartbeat(sessionId, requestId), ConflictError, {
          status: 409,
          code: 'tool_call_terminal',
        });
      }
      // No tool_calls_open any more: new content is accepted.
      await expect(clientA.messages.send(sessionId, { content: '/say Fresh start.' })).resolves.toMatchObject(
        {
          stopReason: 'end_turn',
        },
      );
    });

    it('rewind does not abandon tool calls that were already settled', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool a {}' });
      const requestId = requestIdOf(reply);
      await clientA.tools.respond(sessionId, requestId, { ok: true });
      await clientA.messages.send(sessionId, {});
      const rewound = await clientA.messages.rewind(sessionId, reply.messages[0]?.index ?? 0);
      expect(rewound.abandonedToolCalls).toEqual([]);
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('COMPLETE');
    });

    it('rewind to the server-inserted tool_result message is a 400 invalid_rewind_target', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool a {}' });
      await clientA.tools.respond(sessionId, requestIdOf(reply), { ok: true });
      const resumed = await clientA.messages.send(sessionId, {});
      const results = resumed.messages[0];
      expect(toolResultsOf(results)).toHaveLength(1);
      await expectAPIError(clientA.messages.rewind(sessionId, results?.index ?? -1), BadRequestError, {
        status: 400,
        code: 'invalid_rewind_target',
      });
    });
  });
});
