import { ExportMessagesResponseSchema, MessageReplySchema, RewindResponseSchema } from '@parley/protocol';
import { ManualClock, ModelError, scriptedModel, turn } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { conversationState, isEmptyConversation, planSend } from '../src/conversation/conversation-state.js';
import { appendMessage, SessionStore } from '../src/conversation/session-store.js';
import { expectError, harness } from './helpers/api.js';
import { eventsModel, gatedModel, textEvents, toolEvents } from './helpers/models.js';

describe('messages: buffered send, export, rewind', () => {
  it('a buffered send answers 200 with the user message and the assistant reply, in index order', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.call('POST', `/v1/messages/${sessionId}`, { content: 'hello' });
    expect(res.status).toBe(200);
    const reply = MessageReplySchema.parse(res.body);
    expect(reply.sessionId).toBe(sessionId);
    expect(reply.messages.map((m) => [m.role, m.index])).toEqual([
      ['user', 0],
      ['assistant', 1],
    ]);
    expect(reply.messages[1]?.content).toEqual([{ type: 'text', text: 'You said: hello' }]);
    expect(reply.stopReason).toBe('end_turn');
    expect(reply.pendingTools).toEqual([]);
    expect(reply.heartbeatTimeoutMs).toBe(15_000);
    expect(reply.usage?.totalTokens).toBeGreaterThan(0);
    expect(reply.messages.every((m) => m.deletedAt === null && m.createdAt === 1_000_000)).toBe(true);
  });

  it('content may be an array of text blocks', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    expect(reply.messages[0]?.content).toHaveLength(2);
  });

  it.each([
    ['an empty string', ''],
    ['an empty array', []],
    ['a tool_result block', [{ type: 'tool_result', tool_use_id: 'x', content: [], is_error: false }]],
    ['a tool_use block', [{ type: 'tool_use', id: 'x', name: 'y', input: {} }]],
    ['a number', 5],
  ])(
    'content that is %s is a 400 invalid_request (clients author only user text)',
    async (_name, content) => {
      const h = harness();
      const sessionId = await h.createSession();
      expectError(await h.call('POST', `/v1/messages/${sessionId}`, { content }), 400, 'invalid_request');
    },
  );

  it('the model gets the agent’s system prompt, tools and parameters, and Minimal sessions resolve to the default agent', async () => {
    const model = eventsModel(textEvents('ok'));
    const h = harness({ model });
    await h.send(await h.createSession({ agentId: 'weather' }), 'hi');
    await h.send(await h.createSession(), 'hi');
    const full = await h.createSession({
      model: 'parley-stand-in-1',
      extensions: { tools: { t1: { name: 't1', description: 'd', requestArgs: { type: 'object' } } } },
    });
    await h.send(full, 'hi');
    const [weather, minimal, fullRequest] = model.requests;
    expect(weather?.agentId).toBe('weather');
    expect(weather?.system).toContain('weather');
    expect(weather?.tools.map((t) => [t.name, t.kind])).toEqual([['get_weather', 'client']]);
    expect(weather?.parameters).toEqual({ maxTokens: 1024, temperature: 0 });
    expect(minimal?.agentId).toBe('default');
    expect(minimal?.customizations).toEqual({});
    expect(fullRequest?.agentId).toBeUndefined();
    expect(fullRequest?.modelId).toBe('parley-stand-in-1');
    expect(fullRequest?.system).toBeUndefined();
    expect(fullRequest?.tools.map((t) => t.name)).toEqual(['t1']);
    expect(weather?.messages.at(-1)?.role).toBe('user');
    expect(weather?.turn).toBe(0);
  });

  it('index strictly increases and is never reused, not even after a rewind or an interrupted reply', async () => {
    let fail = true;
    const model = scriptedModel((request) => {
      const first = request.messages.at(-1)?.content[0];
      if (fail && first?.type === 'text' && first.text === 'break') {
        fail = false;
        return turn.fail('broken', { text: 'partial answer' });
      }
      return turn.text('fine');
    });
    const h = harness({ model });
    const sessionId = await h.createSession();
    await h.send(sessionId, 'one'); // 0, 1
    expectError(await h.call('POST', `/v1/messages/${sessionId}`, { content: 'break' }), 502, 'model_error'); // 2, 3 retracted
    await h.send(sessionId); // resume: 4
    await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 2 });
    await h.send(sessionId, 'again'); // 5, 6
    const all = ExportMessagesResponseSchema.parse(
      (await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`)).body,
    );
    expect(all.messages.map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const live = ExportMessagesResponseSchema.parse((await h.call('GET', `/v1/messages/${sessionId}`)).body);
    expect(live.messages.map((m) => m.index)).toEqual([0, 1, 5, 6]);
  });

  it('a model failure is a 502 model_error; the user message stays, the message in progress is kept retracted, and a resume retries', async () => {
    const model = scriptedModel([
      turn.fail('the model broke', { text: 'half an' }),
      turn.text('whole answer'),
    ]);
    const h = harness({ model });
    const sessionId = await h.createSession();
    const error = expectError(
      await h.call('POST', `/v1/messages/${sessionId}`, { content: 'question' }),
      502,
      'model_error',
    );
    expect(error.message).toContain('the model broke');
    const all = (await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`)).body.messages;
    expect(
      all.map((m: { role: string; deletedAt: number | null }) => [m.role, m.deletedAt === null]),
    ).toEqual([
      ['user', true],
      ['assistant', false],
    ]);
    expect(all[1].content).toEqual([{ type: 'text', text: 'half an' }]);
    const retry = await h.send(sessionId);
    expect(retry.messages.map((m) => [m.role, m.index])).toEqual([['assistant', 2]]);
  });

  it('a ModelError with a code from the table keeps its status', async () => {
    const model = () => {
      throw new ModelError('no turn', { code: 'no_script_match' });
    };
    const h = harness({ model });
    expectError(
      await h.call('POST', `/v1/messages/${await h.createSession()}`, { content: 'x' }),
      501,
      'no_script_match',
    );
  });

  it('malformed tool JSON from the model is a model failure and leaves no tool call behind', async () => {
    const model = eventsModel(toolEvents({ id: 'tooluse_bad', name: 'lookup', input: '{"city":' }));
    const h = harness({ model });
    const sessionId = await h.createSession();
    expectError(await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x' }), 502, 'model_error');
    expectError(
      await h.call('GET', `/v1/tools/request/${sessionId}/tooluse_bad`),
      404,
      'tool_call_not_found',
    );
  });

  it('tool input fragments are joined and parsed at contentBlockStop; "" means {}', async () => {
    const model = eventsModel(
      toolEvents(
        { id: 'tooluse_a', name: 'a', input: { nested: { list: [1, 2] }, s: 'é"' } },
        { id: 'tooluse_b', name: 'b', input: '' },
      ),
    );
    const h = harness({ model });
    const reply = await h.send(await h.createSession(), 'x');
    expect(reply.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'tooluse_a', name: 'a', input: { nested: { list: [1, 2] }, s: 'é"' } },
      { type: 'tool_use', id: 'tooluse_b', name: 'b', input: {} },
    ]);
    expect(reply.pendingTools.map((t) => t.requestId)).toEqual(['tooluse_a', 'tooluse_b']);
  });

  it('a delta for a block that is not open is dropped, not a crash', async () => {
    const model = eventsModel([
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 3, delta: { toolUse: { input: '{"x":1}' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'hi' } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: ' late' } } },
      { contentBlockStop: { contentBlockIndex: 7 } },
      { messageStop: { stopReason: 'end_turn' } },
    ]);
    const h = harness({ model });
    const reply = await h.send(await h.createSession(), 'x');
    expect(reply.messages[1]?.content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('export hides retracted messages unless includeDeleted=true; any other value is a 400', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.send(sessionId, 'one');
    await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 });
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).body.messages).toEqual([]);
    expect((await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=false`)).body.messages).toEqual([]);
    expect((await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`)).body.messages).toHaveLength(
      2,
    );
    expectError(await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=yes`), 400, 'invalid_request');
  });

  it('export: includeDeleted given twice is a 400 invalid_request naming the values, never the first one winning', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.send(sessionId, 'one');
    await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 });
    for (const query of [
      'includeDeleted=true&includeDeleted=false',
      'includeDeleted=false&includeDeleted=true',
    ]) {
      const res = await h.call('GET', `/v1/messages/${sessionId}?${query}`);
      const error = expectError(res, 400, 'invalid_request');
      expect(error.message).toMatch(
        /^includeDeleted: given 2 times \("(true|false)", "(true|false)"\); give it once$/,
      );
      expect(error.details).toEqual({
        issues: [{ path: 'includeDeleted', message: expect.stringContaining('give it once') }],
      });
    }
    // The same value twice is refused too: the rule is about the parameter, not the values.
    expectError(
      await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=true&includeDeleted=true`),
      400,
      'invalid_request',
    );
  });

  it('rewind retracts the user message and every live message after it, and answers what it retracted', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.send(sessionId, 'one');
    await h.send(sessionId, 'two');
    await h.clock.advance(10);
    const res = await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 2 });
    expect(res.status).toBe(200);
    expect(RewindResponseSchema.parse(res.body)).toEqual({
      sessionId,
      retracted: [2, 3],
      abandonedToolCalls: [],
    });
    const all = (await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`)).body.messages;
    expect(all.map((m: { deletedAt: number | null }) => m.deletedAt)).toEqual([
      null,
      null,
      1_000_010,
      1_000_010,
    ]);
  });

  it('rewinding past open tool calls abandons them, and the conversation can go on', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, '/tool a {}\n/tool b {}');
    const ids = reply.pendingTools.map((t) => t.requestId);
    await h.call('POST', `/v1/tools/response/${sessionId}/${ids[0]}`, { response: { state: 'COMPLETE' } });
    const res = await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 });
    expect(res.body.abandonedToolCalls).toEqual([ids[1]]);
    expect((await h.call('GET', `/v1/tools/request/${sessionId}/${ids[1]}`)).body.state).toBe('ABANDONED');
    expect((await h.call('GET', `/v1/tools/request/${sessionId}/${ids[0]}`)).body.state).toBe('COMPLETE');
    expect((await h.send(sessionId, 'fresh start')).messages[0]?.index).toBe(2);
  });

  it('rewinding a user message retracts the system message prefetched for it; prefetch runs again for the next one', async () => {
    const model = eventsModel(textEvents('ok'));
    const h = harness({ model });
    const sessionId = await h.createSession({ agentId: 'support' });
    const question = 'escalate a ticket about a payment charged twice';
    const first = await h.send(sessionId, question);
    expect(first.messages.map((m) => [m.role, m.index])).toEqual([
      ['system', 0],
      ['user', 1],
      ['assistant', 2],
    ]);

    const res = await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 1 });
    expect(res.body).toEqual({ sessionId, retracted: [0, 1, 2], abandonedToolCalls: [] });
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).body.messages).toEqual([]);

    // Only system messages (none here) left: the conversation is empty, there is nothing to resume.
    expectError(await h.call('POST', `/v1/messages/${sessionId}`, {}), 409, 'nothing_to_resume');

    const again = await h.send(sessionId, question);
    expect(again.messages.map((m) => [m.role, m.index])).toEqual([
      ['system', 3],
      ['user', 4],
      ['assistant', 5],
    ]);
    expect(model.requests.at(-1)?.messages.map((m) => [m.role, m.index])).toEqual([
      ['system', 3],
      ['user', 4],
    ]);
  });

  it('rewinding a later user message keeps the prefetched system message of the first one', async () => {
    const h = harness({ model: eventsModel(textEvents('ok')) });
    const sessionId = await h.createSession({ agentId: 'support' });
    await h.send(sessionId, 'escalate a ticket about a payment charged twice'); // 0 system, 1 user, 2 answer
    await h.send(sessionId, 'and refunds?'); // 3 user, 4 answer (no prefetch)
    const res = await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 3 });
    expect(res.body.retracted).toEqual([3, 4]);
    const live = (await h.call('GET', `/v1/messages/${sessionId}`)).body.messages;
    expect(live.map((m: { role: string; index: number }) => [m.role, m.index])).toEqual([
      ['system', 0],
      ['user', 1],
      ['assistant', 2],
    ]);
  });

  it('a conversation whose live messages are only system messages counts as empty', () => {
    const clock = new ManualClock(0);
    const store = new SessionStore({ clock, heartbeatTimeoutMs: 1000, toolCallTimeoutMs: 10_000 });
    const session = store.create('demo', {}, 'support', undefined);
    appendMessage(session, 'system', [{ type: 'text', text: 'context' }], 0);
    expect(isEmptyConversation(session)).toBe(true);
    expect(conversationState(session)).toEqual({ kind: 'empty' });
    expect(() => planSend(session, false)).toThrow(/no messages to resume/);
    expect(planSend(session, true)).toEqual({ kind: 'content' });
  });

  it('409 reply_in_progress names the running reply: when it started and whether it streams', async () => {
    const gated = gatedModel();
    const h = harness({ model: gated.model });
    const sessionId = await h.createSession();
    await h.clock.advance(250);
    const running = h.call('POST', `/v1/messages/${sessionId}`, { content: 'hi' });
    await gated.firstEventSent;
    for (const path of [`/v1/messages/${sessionId}`, `/v1/messages/${sessionId}/stream`]) {
      const busy = expectError(await h.call('POST', path, { content: 'again' }), 409, 'reply_in_progress');
      expect(busy.details).toEqual({ sessionId, startedAt: 1_000_250, streamed: false });
      expect(busy.message).toContain('buffered reply (started at 1970-01-01T00:16:40.250Z)');
    }
    const rewind = await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 });
    expect(expectError(rewind, 409, 'reply_in_progress').details).toMatchObject({ startedAt: 1_000_250 });
    gated.release();
    expect((await running).status).toBe(200);

    const gatedStream = gatedModel();
    h.server.setModel(gatedStream.model);
    const streamed = await h.server.fetch(
      new Request(`http://parley.test/v1/messages/${sessionId}/stream`, {
        method: 'POST',
        headers: { authorization: 'Bearer parley-demo-token' },
        body: JSON.stringify({ content: 'more' }),
      }),
    );
    await gatedStream.firstEventSent;
    const busy = expectError(
      await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x' }),
      409,
      'reply_in_progress',
    );
    expect(busy.details).toEqual({ sessionId, startedAt: 1_000_250, streamed: true });
    expect(busy.message).toContain('streamed reply');
    gatedStream.release();
    expect(await streamed.text()).toContain('replyStop');
  });

  it('rewind must target a live, client-authored user message', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.send(sessionId, '/tool a {}');
    const [, use] = (await h.call('GET', `/v1/messages/${sessionId}`)).body.messages;
    await h.call('POST', `/v1/tools/response/${sessionId}/${use.content[0].id}`, {
      response: { state: 'COMPLETE' },
    });
    await h.send(sessionId); // 2 = tool results, 3 = answer
    expectError(
      await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 1 }),
      400,
      'invalid_rewind_target',
    );
    expectError(
      await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 2 }),
      400,
      'invalid_rewind_target',
    );
    expectError(
      await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 99 }),
      404,
      'message_not_found',
    );
    expectError(
      await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: -1 }),
      400,
      'invalid_request',
    );
    await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 });
    expectError(
      await h.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 }),
      404,
      'message_not_found',
    );
  });
});
