import {
  BadRequestError,
  ConflictError,
  InternalServerError,
  type Message,
  PayloadTooLargeError,
  type SendMessageParams,
} from '@parley/sdk';
import { describe, expect, it, vi } from 'vitest';
import { expectAPIError, requestIdOf, resultFor, textOf, toolResultsOf } from './assertions.js';
import { FAIL_ONCE_PROMPT, RECOVERED_TEXT } from './contract-model.js';
import { capabilities, NEEDS_DIRECTIVES, NEEDS_INTERNALS, targets, useTarget } from './target.js';

/** Bodies the SDK's types forbid, sent anyway to test the server. */
const unchecked = (body: unknown) => body as SendMessageParams;

function expectIncreasing(messages: readonly Message[]): void {
  const indexes = messages.map((m) => m.index);
  for (let i = 1; i < indexes.length; i++) expect(indexes[i]).toBeGreaterThan(indexes[i - 1] ?? -1);
}

describe.each(targets())('messages [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  it('the buffered reply holds the messages it appended in index order, stopReason, pendingTools and heartbeatTimeoutMs', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const reply = await clientA.messages.send(sessionId, { content: 'Hello, contract suite' });
    expect(reply.sessionId).toBe(sessionId);
    expect(reply.stopReason).toBe('end_turn');
    expect(reply.pendingTools).toEqual([]);
    expect(reply.heartbeatTimeoutMs).toBeGreaterThan(0);
    const [user, ...rest] = reply.messages;
    expect(user).toMatchObject({
      role: 'user',
      index: 0,
      deletedAt: null,
      content: [{ type: 'text', text: 'Hello, contract suite' }],
    });
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.at(-1)?.role).toBe('assistant');
    for (const message of reply.messages) {
      expect(message.deletedAt).toBeNull();
      expect(message.createdAt).toEqual(expect.any(Number));
    }
    expectIncreasing(reply.messages);
    // The export holds the same messages.
    expect(await clientA.messages.export(sessionId)).toEqual(reply.messages);
  });

  it('content may be an array of text blocks', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const reply = await clientA.messages.send(sessionId, {
      content: [
        { type: 'text', text: 'first block' },
        { type: 'text', text: 'second block' },
      ],
    });
    expect(reply.messages[0]?.content).toEqual([
      { type: 'text', text: 'first block' },
      { type: 'text', text: 'second block' },
    ]);
  });

  it('indexes strictly increase and are never reused after a rewind', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const first = await clientA.messages.send(sessionId, { content: 'one' });
    const second = await clientA.messages.send(sessionId, { content: 'two' });
    const before = [...first.messages, ...second.messages];
    expectIncreasing(before);
    const secondUser = second.messages[0];
    if (!secondUser) throw new Error('no user message');
    const rewound = await clientA.messages.rewind(sessionId, secondUser.index);
    expect(rewound.retracted).toEqual(second.messages.map((m) => m.index));

    const third = await clientA.messages.send(sessionId, { content: 'three' });
    const maxBefore = Math.max(...before.map((m) => m.index));
    for (const message of third.messages) expect(message.index).toBeGreaterThan(maxBefore);
    const all = await clientA.messages.export(sessionId, { includeDeleted: true });
    expectIncreasing(all);
    expect(new Set(all.map((m) => m.index)).size).toBe(all.length);
  });

  it('a client-authored tool_result block is a 400', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const content = [
      { type: 'tool_result', tool_use_id: 'tooluse_x', content: [{ type: 'text', text: 'x' }] },
    ];
    await expectAPIError(clientA.messages.send(sessionId, unchecked({ content })), BadRequestError, {
      status: 400,
      code: 'invalid_request',
    });
    expect(await clientA.messages.export(sessionId)).toEqual([]);
  });

  it('empty content (an empty string, an empty array, an empty text block) is a 400', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    for (const content of ['', [], [{ type: 'text', text: '' }]]) {
      await expectAPIError(clientA.messages.send(sessionId, unchecked({ content })), BadRequestError, {
        status: 400,
        code: 'invalid_request',
      });
    }
  });

  it('a role other than user, or an unknown body field, is a 400', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    for (const body of [
      { content: 'hi', role: 'system' },
      { content: 'hi', contentt: 'typo' },
    ]) {
      await expectAPIError(clientA.messages.send(sessionId, unchecked(body)), BadRequestError, {
        status: 400,
        code: 'invalid_request',
      });
    }
  });

  it('a body over the size limit is a 413 PayloadTooLargeError', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    await expectAPIError(
      clientA.messages.send(sessionId, { content: 'x'.repeat(1024 * 1024 + 1) }),
      PayloadTooLargeError,
      { status: 413, code: 'payload_too_large' },
    );
  });

  it('resume with nothing to resume (new session, or after a finished reply) is a 409 nothing_to_resume', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const conflict = { status: 409, code: 'nothing_to_resume' };
    await expectAPIError(clientA.messages.send(sessionId, {}), ConflictError, conflict);
    await clientA.messages.send(sessionId, { content: 'hello' });
    await expectAPIError(clientA.messages.send(sessionId, {}), ConflictError, conflict);
  });

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('several tool_use blocks in one turn are all returned as pending tools, in order', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, {
        content:
          '/say Checking both.\n/tool get_weather {"city":"Paris"}\n/tool get_time {"tz":"Europe/Paris"}',
      });
      expect(reply.stopReason).toBe('tool_use');
      expect(reply.pendingTools).toMatchObject([
        { name: 'get_weather', input: { city: 'Paris' }, state: 'PENDING' },
        { name: 'get_time', input: { tz: 'Europe/Paris' }, state: 'PENDING' },
      ]);
      const assistant = reply.messages.at(-1);
      const toolUses = assistant?.content.filter((b) => b.type === 'tool_use') ?? [];
      expect(toolUses.map((b) => b.id)).toEqual(reply.pendingTools.map((p) => p.requestId));
      for (const pending of reply.pendingTools) {
        expect(pending.deadlineAt).toBeGreaterThan(pending.createdAt);
      }
    });

    it('sending while tool calls are open is a 409 ConflictError tool_calls_open naming the open requestIds', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool a {}\n/tool b {}' });
      const [first, second] = [requestIdOf(reply, 0), requestIdOf(reply, 1)];
      const error = await expectAPIError(
        clientA.messages.send(sessionId, { content: 'next' }),
        ConflictError,
        {
          status: 409,
          code: 'tool_calls_open',
        },
      );
      expect(error.details?.openToolCalls).toEqual([
        expect.objectContaining({ requestId: first, name: 'a', state: 'PENDING' }),
        expect.objectContaining({ requestId: second, name: 'b', state: 'PENDING' }),
      ]);
      // The streamed endpoint answers the same, before the first byte.
      await expectAPIError(
        clientA.messages.stream(sessionId, { content: 'next' }).finalReply(),
        ConflictError,
        { status: 409, code: 'tool_calls_open' },
      );
    });

    it('resume before every tool call is settled is a 409 tool_calls_open naming the rest', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool a {}\n/tool b {}' });
      await clientA.tools.heartbeat(sessionId, requestIdOf(reply, 1));
      await clientA.tools.respond(sessionId, requestIdOf(reply, 0), { ok: true });
      const error = await expectAPIError(clientA.messages.send(sessionId, {}), ConflictError, {
        status: 409,
        code: 'tool_calls_open',
      });
      expect(error.details?.openToolCalls).toEqual([
        expect.objectContaining({ requestId: requestIdOf(reply, 1), state: 'PROCESSING' }),
      ]);
    });

    it('new content after the tool calls are settled but before resuming is a 409 resume_required', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool a {}' });
      await clientA.tools.respond(sessionId, requestIdOf(reply), { ok: true });
      await expectAPIError(clientA.messages.send(sessionId, { content: 'next' }), ConflictError, {
        status: 409,
        code: 'resume_required',
      });
      const resumed = await clientA.messages.send(sessionId, {});
      expect(resumed.stopReason).toBe('end_turn');
      await expect(clientA.messages.send(sessionId, { content: 'next' })).resolves.toMatchObject({
        stopReason: 'end_turn',
      });
    });

    it('every tool_use is answered by a tool_result before the model goes on (COMPLETE as json, ERROR as is_error)', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, {
        content: '/tool get_weather {"city":"Paris"}\n/tool get_time {}',
      });
      const [weather, time] = [requestIdOf(reply, 0), requestIdOf(reply, 1)];
      await clientA.tools.respond(sessionId, weather, { tempC: 21, sky: 'clear' });
      await clientA.tools.fail(sessionId, time, 'Clock service down');

      const resumed = await clientA.messages.send(sessionId, {});
      const [results, ...answer] = resumed.messages;
      expect(results?.role).toBe('user');
      // One user message answers every tool_use, in tool_use order.
      expect(toolResultsOf(results).map((b) => b.tool_use_id)).toEqual([weather, time]);
      expect(resultFor(results, weather)).toMatchObject({
        is_error: false,
        content: [{ type: 'json', json: { tempC: 21, sky: 'clear' } }],
      });
      expect(resultFor(results, weather).content).not.toContainEqual(
        expect.objectContaining({ json: expect.objectContaining({ state: expect.anything() }) }),
      );
      const failed = resultFor(results, time);
      expect(failed.is_error).toBe(true);
      expect(JSON.stringify(failed.content)).toContain('Clock service down');
      expect(answer.at(-1)?.role).toBe('assistant');
      expect(resumed.stopReason).toBe('end_turn');
      expectIncreasing(resumed.messages);
    });

    it('a model failure is a 502 model_error; the user message stays and a resume is accepted', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      await expectAPIError(
        clientA.messages.send(sessionId, { content: '/fail Upstream overloaded' }),
        InternalServerError,
        {
          status: 502,
          code: 'model_error',
        },
      );
      const messages = await clientA.messages.export(sessionId);
      expect(messages.map((m) => [m.role, textOf(m)])).toEqual([['user', '/fail Upstream overloaded']]);
      // The resume retries the answer (the directive fails again: a model error, not nothing_to_resume).
      await expectAPIError(clientA.messages.send(sessionId, {}), InternalServerError, {
        status: 502,
        code: 'model_error',
      });
      // New content after the unanswered user message is accepted, appended after it.
      const next = await clientA.messages.send(sessionId, { content: '/say Fine now.' });
      expect(next.messages[0]?.index).toBeGreaterThan(messages[0]?.index ?? -1);
      expect(textOf(next.messages.at(-1))).toBe('Fine now.');
    });
  });

  describe.runIf(caps.internals)(NEEDS_INTERNALS, () => {
    it('a resume after a model failure retries the answer', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      await expectAPIError(
        clientA.messages.send(sessionId, { content: FAIL_ONCE_PROMPT }),
        InternalServerError,
        {
          status: 502,
          code: 'model_error',
        },
      );
      const resumed = await clientA.messages.send(sessionId, {});
      expect(textOf(resumed.messages.at(-1))).toBe(RECOVERED_TEXT);
      expect(resumed.messages.every((m) => m.role === 'assistant')).toBe(true);
    });

    it('an ABANDONED call is answered by an is_error tool_result before the model goes on', async () => {
      const { clientA, clock } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool slow {}' });
      const pending = reply.pendingTools[0];
      if (!pending || !clock) throw new Error('no pending tool');
      await clock.set(pending.deadlineAt + 1);
      const resumed = await clientA.messages.send(sessionId, {});
      const result = resultFor(resumed.messages[0], pending.requestId);
      expect(result.is_error).toBe(true);
      expect(JSON.stringify(result.content)).toContain('Tool call abandoned');
    });

    it('a send while another reply runs in the session is a 409 reply_in_progress', async () => {
      const { clientA, clock } = target;
      if (!clock) throw new Error('needs the clock');
      const { sessionId } = await clientA.sessions.create();
      const stream = clientA.messages.stream(sessionId, { content: '/delay 1000\n/say slow words' });
      const firstText = new Promise<void>((resolve) => stream.once('text', () => resolve()));
      await firstText;
      await expectAPIError(clientA.messages.send(sessionId, { content: 'meanwhile' }), ConflictError, {
        status: 409,
        code: 'reply_in_progress',
      });
      await expectAPIError(clientA.messages.rewind(sessionId, 0), ConflictError, {
        status: 409,
        code: 'reply_in_progress',
      });
      await vi.waitFor(() => expect(clock.pendingSleeps).toBeGreaterThan(0));
      await clock.advance(1000);
      await expect(stream.finalText()).resolves.toBe('slow words');
    });
  });
});
