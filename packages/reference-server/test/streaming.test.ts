import { MessageReplySchema, ReplyStopSchema, STREAM_EVENT_SCHEMAS, type StreamBody } from '@parley/protocol';
import { scriptedModel, turn } from '@parley/reference-server';
import { afterEach, describe, expect, it } from 'vitest';
import { gatedModel } from './helpers/models.js';
import { kinds, readUntil, tick } from './helpers/stream.js';
import { startWith, TRANSPORTS } from './helpers/transports.js';

type Started = Awaited<ReturnType<typeof startWith>>;

function assertEventShapes(body: StreamBody): void {
  for (const event of body.events) {
    const [kind, payload] = Object.entries(event)[0] ?? [];
    const schema = STREAM_EVENT_SCHEMAS[kind as keyof typeof STREAM_EVENT_SCHEMAS];
    expect(schema, `unknown event kind ${kind}`).toBeDefined();
    expect(schema.safeParse(payload).success, JSON.stringify(event)).toBe(true);
  }
}

describe.each(TRANSPORTS)('streamed send over $name', (transport) => {
  let started: Started | undefined;
  afterEach(async () => {
    await started?.close();
    started = undefined;
  });

  it('the stream is application/json {"sessionId","events":[...]} with every message framed and replyStop last', async () => {
    started = await startWith(transport);
    const sessionId = await started.createSession();
    const res = await started.stream(sessionId, {
      content: 'Weather?\n/say Let me check.\n/tool get_weather {"city":"Paris"}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await res.json()) as StreamBody;
    expect(body.sessionId).toBe(sessionId);
    assertEventShapes(body);
    const k = kinds(body);
    expect(k.slice(0, 4)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop']);
    expect(body.events[0]).toEqual({ messageStart: { role: 'user', index: 0 } });
    expect(body.events[4]).toEqual({ messageStart: { role: 'assistant', index: 1 } });
    expect(k).toContain('contentBlockStart');
    expect(k.at(-1)).toBe('replyStop');
    expect(k.at(-2)).toBe('metadata');
    const userStop = body.events[3] as { messageStop: Record<string, unknown> };
    expect(userStop.messageStop.stopReason).toBeUndefined();
    expect(body.events).toContainEqual({ messageStop: { stopReason: 'tool_use' } });
    const toolStart = body.events.find((e) => 'contentBlockStart' in e) as {
      contentBlockStart: { start: { toolUse: { toolUseId: string } } };
    };
    const inputs = body.events
      .filter(
        (e) =>
          'contentBlockDelta' in e &&
          'toolUse' in (e as { contentBlockDelta: { delta: object } }).contentBlockDelta.delta,
      )
      .map(
        (e) =>
          (e as { contentBlockDelta: { delta: { toolUse: { input: string } } } }).contentBlockDelta.delta
            .toolUse.input,
      );
    expect(JSON.parse(inputs.join(''))).toEqual({ city: 'Paris' });

    const replyStop = ReplyStopSchema.parse((body.events.at(-1) as { replyStop: unknown }).replyStop);
    expect(replyStop.stopReason).toBe('tool_use');
    expect(replyStop.heartbeatTimeoutMs).toBe(15_000);
    expect(replyStop.pendingTools.map((t) => t.requestId)).toEqual([
      toolStart.contentBlockStart.start.toolUse.toolUseId,
    ]);
    const exported = await started.call('GET', `/v1/messages/${sessionId}`);
    expect(replyStop.messages).toEqual(exported.body.messages);
  });

  it('the streamed reply carries the same information as the buffered one', async () => {
    started = await startWith(transport);
    const a = await started.createSession();
    const b = await started.createSession();
    const buffered = MessageReplySchema.parse(
      (await started.call('POST', `/v1/messages/${a}`, { content: 'hello' })).body,
    );
    const streamed = (await (await started.stream(b, { content: 'hello' })).json()) as StreamBody;
    const replyStop = ReplyStopSchema.parse((streamed.events.at(-1) as { replyStop: unknown }).replyStop);
    const { sessionId: _s, ...rest } = buffered;
    expect(replyStop).toEqual(rest);
  });

  it('a resume streams the tool_result message (contentBlockStart toolResult, one delta, stop) then the answer', async () => {
    started = await startWith(transport);
    const sessionId = await started.createSession();
    const first = (
      await started.call('POST', `/v1/messages/${sessionId}`, { content: '/tool a {}\n/tool b {}' })
    ).body;
    const [a, b] = first.pendingTools.map((t: { requestId: string }) => t.requestId);
    await started.call('POST', `/v1/tools/response/${sessionId}/${a}`, {
      response: { state: 'COMPLETE', v: 1 },
    });
    await started.call('POST', `/v1/tools/request/${sessionId}/${b}/heartbeat`, {
      state: 'ERROR',
      error: 'nope',
    });
    const body = (await (await started.stream(sessionId, {})).json()) as StreamBody;
    assertEventShapes(body);
    expect(body.events.slice(0, 8)).toEqual([
      { messageStart: { role: 'user', index: 2 } },
      {
        contentBlockStart: {
          contentBlockIndex: 0,
          start: { toolResult: { toolUseId: a, status: 'success' } },
        },
      },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolResult: [{ json: { v: 1 } }] } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      {
        contentBlockStart: { contentBlockIndex: 1, start: { toolResult: { toolUseId: b, status: 'error' } } },
      },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolResult: [{ text: 'nope' }] } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { messageStop: {} },
    ]);
    expect(body.events[8]).toEqual({ messageStart: { role: 'assistant', index: 3 } });
  });

  it('the first event reaches the client before the model has finished', async () => {
    const gated = gatedModel();
    started = await startWith(transport, { model: gated.model });
    const sessionId = await started.createSession();
    const res = await started.stream(sessionId, { content: 'hi' });
    const reading = await readUntil(res, (text) => text.includes('"first "'));
    // The model is still waiting for the test: nothing after the first delta was produced yet.
    expect(reading.text).not.toContain('second');
    expect(reading.text).not.toContain('replyStop');
    gated.release();
    const body = await reading.finish();
    expect(kinds(body).at(-1)).toBe('replyStop');
    expect(JSON.stringify(body)).toContain('first second');
  });

  it('a model failure after the headers becomes one exception event and the JSON still closes cleanly', async () => {
    started = await startWith(transport, { model: scriptedModel([turn.fail('kaput', { text: 'so far' })]) });
    const sessionId = await started.createSession();
    const res = await started.stream(sessionId, { content: 'hi' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as StreamBody;
    const last = body.events.at(-1);
    expect(last).toEqual({
      modelStreamErrorException: { message: 'kaput', code: 'model_error', originalStatusCode: 502 },
    });
    expect(kinds(body)).not.toContain('replyStop');
    const all = (await started.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`)).body.messages;
    expect(
      all.map((m: { role: string; deletedAt: number | null }) => [m.role, m.deletedAt !== null]),
    ).toEqual([
      ['user', false],
      ['assistant', true],
    ]);
  });

  it('errors before the first byte are ordinary HTTP errors (auth, validation, 404, 409)', async () => {
    const gated = gatedModel();
    started = await startWith(transport, { model: gated.model });
    const sessionId = await started.createSession();
    expect((await started.stream('sess_missing', { content: 'x' })).status).toBe(404);
    expect((await started.stream(sessionId, { content: '' })).status).toBe(400);
    const res = await started.stream(sessionId, { content: 'hi' });
    const reading = await readUntil(res, (text) => text.includes('"first "'));
    const busy = await started.stream(sessionId, { content: 'again' });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('reply_in_progress');
    expect((await started.call('POST', `/v1/messages/${sessionId}`, { content: 'x' })).body.error.code).toBe(
      'reply_in_progress',
    );
    expect(
      (await started.call('POST', `/v1/messages/${sessionId}/rewind`, { index: 0 })).body.error.code,
    ).toBe('reply_in_progress');
    gated.release();
    await reading.finish();
  });

  it('deleting the session aborts its running reply; the stream ends with an exception event', async () => {
    const gated = gatedModel();
    started = await startWith(transport, { model: gated.model });
    const sessionId = await started.createSession();
    const reading = await readUntil(await started.stream(sessionId, { content: 'hi' }), (t) =>
      t.includes('"first "'),
    );
    expect((await started.call('DELETE', `/v1/sessions/${sessionId}`)).status).toBe(204);
    const body = await reading.finish();
    expect(body.events.at(-1)).toMatchObject({ internalServerException: { code: 'session_not_found' } });
    expect((await started.call('GET', `/v1/messages/${sessionId}`)).status).toBe(404);
  });
});

describe('streamed send over real HTTP only', () => {
  it('a client that disconnects mid-stream leaves the session consistent: user message kept, partial answer retracted, resume works', async () => {
    const gated = gatedModel();
    const started = await startWith(TRANSPORTS[0]!, { model: gated.model });
    try {
      const sessionId = await started.createSession();
      const abort = new AbortController();
      const res = await started.stream(sessionId, { content: 'hi' }, abort.signal);
      await readUntil(res, (text) => text.includes('"first "'));
      abort.abort();
      // Wait (without a timer) until the server noticed and released the session.
      let messages: Array<{ role: string; deletedAt: number | null; content: unknown }> = [];
      for (let i = 0; i < 500; i++) {
        messages = (await started.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`)).body.messages;
        if (messages.length === 2) break;
        await tick();
      }
      expect(messages.map((m) => [m.role, m.deletedAt !== null])).toEqual([
        ['user', false],
        ['assistant', true],
      ]);
      expect(messages[1]?.content).toEqual([{ type: 'text', text: 'first ' }]);
      gated.release();
      const resumed = await started.call('POST', `/v1/messages/${sessionId}`, {});
      expect(resumed.status).toBe(200);
      expect(resumed.body.messages.map((m: { index: number }) => m.index)).toEqual([2]);
    } finally {
      await started.close();
    }
  });

  it('close() ends open streams promptly', async () => {
    const gated = gatedModel();
    const started = await startWith(TRANSPORTS[0]!, { model: gated.model });
    const sessionId = await started.createSession();
    const reading = await readUntil(await started.stream(sessionId, { content: 'hi' }), (t) =>
      t.includes('"first "'),
    );
    await started.close();
    // The body ends (cleanly or as a network error) promptly: the 5 s timer is only a failure guard.
    let guard: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      reading.finish().then(
        () => 'ended',
        () => 'ended',
      ),
      new Promise<string>((resolve) => {
        guard = setTimeout(() => resolve('still open after 5 s'), 5000);
      }),
    ]).finally(() => clearTimeout(guard));
    expect(ended).toBe('ended');
  });
});
