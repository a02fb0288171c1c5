import {
  APITimeoutError,
  APIUserAbortError,
  ConflictError,
  Parley,
  ResponseValidationError,
  StreamError,
  type StreamEventItem,
} from '@parley/sdk';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createControlledBody, createMockFetch, streamResponse } from '../helpers/mock-fetch.js';
import { PENDING, REPLY_STOP, SESSION_ID, streamBody, toolUseEvents } from '../helpers/stream-fixtures.js';

function setup(options: { streamIdleTimeoutMs?: number; streamFirstEventTimeoutMs?: number } = {}) {
  const mock = createMockFetch();
  const client = new Parley({ baseUrl: 'http://parley.test', token: 'tok', fetch: mock.fetch, ...options });
  return { mock, client };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('MessageStream', () => {
  it('posts to the stream endpoint and iterates typed events in order', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    const types: string[] = [];
    for await (const event of client.messages.stream(SESSION_ID, { content: 'Weather?' }))
      types.push(event.type);
    expect(types).toEqual(toolUseEvents().map((e) => Object.keys(e as object)[0]));
    expect(mock.requests[0]?.url).toBe(`http://parley.test/v1/messages/${SESSION_ID}/stream`);
    expect(mock.bodies[0]).toBe('{"content":"Weather?"}');
  });

  it('narrows events on type', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    let text = '';
    for await (const event of client.messages.stream(SESSION_ID, {})) {
      if (
        event.type === 'contentBlockDelta' &&
        'text' in event.delta &&
        typeof event.delta.text === 'string'
      ) {
        text += event.delta.text;
      }
      if (event.type === 'messageStart') expect(typeof event.index).toBe('number');
    }
    expect(text).toBe('Weather?Let me check.');
  });

  it('finalReply() has the buffered reply shape, with the sessionId from the body', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    const stream = client.messages.stream(SESSION_ID, { content: 'Weather?' });
    await expect(stream.finalReply()).resolves.toEqual({ sessionId: SESSION_ID, ...REPLY_STOP });
    await expect(stream.finalText()).resolves.toBe('Let me check.');
    await expect(stream.stopReason()).resolves.toBe('tool_use');
    await expect(stream.pendingTools()).resolves.toEqual([PENDING]);
    await expect(stream.finalMessages()).resolves.toEqual(REPLY_STOP.messages);
  });

  it('.on() reports text with snapshots (assistant only), tool uses with parsed input, and messages', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    const texts: Array<[string, string]> = [];
    const tools: unknown[] = [];
    const messages: unknown[] = [];
    const order: string[] = [];
    const stream = client.messages
      .stream(SESSION_ID, {})
      .on('text', (delta, snapshot) => texts.push([delta, snapshot]))
      .on('toolUse', (block) => tools.push(block))
      .on('message', (m) => messages.push({ role: m.role, index: m.index, stopReason: m.stopReason }))
      .on('reply', () => order.push('reply'))
      .on('end', () => order.push('end'));
    await stream.done();
    expect(texts).toEqual([
      ['Let me ', 'Let me '],
      ['check.', 'Let me check.'],
    ]);
    expect(tools).toEqual([
      { type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(messages).toEqual([
      { role: 'user', index: 0, stopReason: undefined },
      { role: 'assistant', index: 1, stopReason: 'tool_use' },
    ]);
    expect(order).toEqual(['reply', 'end']);
    expect(stream.messages[1]?.content).toEqual(REPLY_STOP.messages[1]?.content);
  });

  it('joins tool input fragments and treats "" as {}', async () => {
    const { mock, client } = setup();
    const events = [
      { messageStart: { role: 'assistant', index: 0 } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't', name: 'now' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: 'tool_use' } },
      { replyStop: { ...REPLY_STOP, messages: [] } },
    ];
    mock.enqueue(streamResponse([streamBody(events)]));
    const stream = client.messages.stream(SESSION_ID, {});
    const inputs: unknown[] = [];
    stream.on('toolUse', (block) => inputs.push(block.input));
    await stream.done();
    expect(inputs).toEqual([{}]);
  });

  it('collects tool results into tool_result blocks', async () => {
    const { mock, client } = setup();
    const events = [
      { messageStart: { role: 'user', index: 2 } },
      {
        contentBlockStart: {
          contentBlockIndex: 0,
          start: { toolResult: { toolUseId: 't', status: 'error' } },
        },
      },
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { toolResult: [{ text: 'nope' }, { json: { a: 1 } }] },
        },
      },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: {} },
      { replyStop: { ...REPLY_STOP, messages: [] } },
    ];
    mock.enqueue(streamResponse([streamBody(events)]));
    const stream = client.messages.stream(SESSION_ID, {});
    await stream.done();
    expect(stream.messages[0]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't',
        is_error: true,
        content: [
          { type: 'text', text: 'nope' },
          { type: 'json', json: { a: 1 } },
        ],
      },
    ]);
  });

  it('passes unknown event kinds through as { type: "unknown" } without failing', async () => {
    const { mock, client } = setup();
    const events = toolUseEvents();
    events.splice(5, 0, { reasoningDelta: { text: 'hmm' } });
    mock.enqueue(streamResponse([streamBody(events)]));
    const seen: StreamEventItem[] = [];
    const stream = client.messages.stream(SESSION_ID, {});
    for await (const event of stream) seen.push(event);
    expect(seen[5]).toEqual({ type: 'unknown', kind: 'reasoningDelta', payload: { text: 'hmm' } });
    await expect(stream.finalText()).resolves.toBe('Let me check.');
  });

  it('drops deltas for blocks that are not open', async () => {
    const { mock, client } = setup();
    const events = [
      { contentBlockDelta: { contentBlockIndex: 3, delta: { text: 'orphan' } } },
      { messageStart: { role: 'assistant', index: 0 } },
      { contentBlockDelta: { contentBlockIndex: 5, delta: { toolUse: { input: '{' } } } },
      { contentBlockStop: { contentBlockIndex: 7 } },
      { messageStop: { stopReason: 'end_turn' } },
      { replyStop: { ...REPLY_STOP, messages: [] } },
    ];
    mock.enqueue(streamResponse([streamBody(events)]));
    await expect(client.messages.stream(SESSION_ID, {}).done()).resolves.toBeUndefined();
  });

  it('gives the same events for any chunking of the body', async () => {
    const body = streamBody(toolUseEvents());
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: body.length }), { maxLength: 20 }),
        async (cuts) => {
          const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), body.length];
          const chunks = points.slice(1).map((end, i) => body.slice(points[i], end));
          const { mock, client } = setup();
          mock.enqueue(streamResponse(chunks));
          const stream = client.messages.stream(SESSION_ID, {});
          const count = { n: 0 };
          stream.on('event', () => count.n++);
          await expect(stream.finalText()).resolves.toBe('Let me check.');
          expect(count.n).toBe(toolUseEvents().length);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('an HTTP error before the stream rejects finalReply() and the iterator with the APIError', async () => {
    const { mock, client } = setup();
    mock.json(409, { error: { code: 'reply_in_progress', message: 'busy' } });
    const stream = client.messages.stream(SESSION_ID, { content: 'x' });
    const error = await stream.finalReply().catch((e: unknown) => e);
    expect(error instanceof ConflictError).toBe(true);
    await expect(
      (async () => {
        for await (const _ of stream) {
          // nothing
        }
      })(),
    ).rejects.toBe(error);
  });

  it('an exception event is a StreamError with its code, after the events before it', async () => {
    const { mock, client } = setup();
    const events = [
      ...toolUseEvents().slice(0, 6),
      { modelStreamErrorException: { message: 'model broke', code: 'model_error', originalStatusCode: 502 } },
    ];
    mock.enqueue(streamResponse([streamBody(events)]));
    const stream = client.messages.stream(SESSION_ID, {});
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error instanceof StreamError).toBe(true);
    expect(error).toMatchObject({
      code: 'model_error',
      exceptionKind: 'modelStreamErrorException',
      eventCount: 7,
      lastEventKind: 'modelStreamErrorException',
    });
    expect((error as Error).message).toContain('model broke');
    expect(seen).toHaveLength(7);
    await expect(stream.finalReply()).rejects.toBe(error);
  });

  it('a body that ends without ]} is a StreamError naming what was received', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents().slice(0, 7), { close: false })]));
    const error = await client.messages
      .stream(SESSION_ID, {})
      .finalText()
      .catch((e: unknown) => e);
    expect(error instanceof StreamError).toBe(true);
    expect((error as Error).message).toBe(
      'The stream ended before the body was complete (after 7 events, last contentBlockDelta, request req_stream)',
    );
  });

  it('a complete body without replyStop is a StreamError', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents().slice(0, 4))]));
    const error = await client.messages
      .stream(SESSION_ID, {})
      .finalReply()
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'The stream ended without replyStop (after 4 events, last messageStop, request req_stream)',
    );
  });

  it('malformed JSON is a StreamError', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse(['{"sessionId":"s","events":[{"messageStart":{]']));
    expect(
      (await client.messages
        .stream(SESSION_ID, {})
        .done()
        .catch((e: unknown) => e)) instanceof StreamError,
    ).toBe(true);
  });

  it('a known event with an invalid payload is a ResponseValidationError', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody([{ messageStart: { role: 'robot', index: 0 } }])]));
    const error = await client.messages
      .stream(SESSION_ID, {})
      .done()
      .catch((e: unknown) => e);
    expect(error instanceof ResponseValidationError).toBe(true);
  });

  it('bad tool input JSON is a StreamError', async () => {
    const { mock, client } = setup();
    const events = [
      { messageStart: { role: 'assistant', index: 0 } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't', name: 'x' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
    ];
    mock.enqueue(streamResponse([streamBody(events)]));
    const error = await client.messages
      .stream(SESSION_ID, {})
      .done()
      .catch((e: unknown) => e);
    expect(error instanceof StreamError && error.message).toContain('tool call t is not valid JSON');
  });

  it('a listener that throws fails the stream with its error', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    const boom = new Error('listener bug');
    const stream = client.messages.stream(SESSION_ID, {}).on('text', () => {
      throw boom;
    });
    await expect(stream.finalReply()).rejects.toBe(boom);
  });

  it.each(['a string', undefined])(
    'a listener that throws something else than an Error (%s) fails the stream with a ParleyError whose cause is it',
    async (thrown) => {
      const { mock, client } = setup();
      mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
      const stream = client.messages.stream(SESSION_ID, {}).on('text', () => {
        throw thrown;
      });
      const error = await stream.finalReply().catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'ParleyError',
        message: `A "text" listener threw: ${String(thrown)}`,
      });
      expect((error as Error).cause).toBe(thrown);
    },
  );
});

describe('MessageStream timeouts and cancellation', () => {
  it('no event within firstEventTimeoutMs is an APITimeoutError', async () => {
    vi.useFakeTimers();
    const { mock, client } = setup({ streamFirstEventTimeoutMs: 1000, streamIdleTimeoutMs: 5000 });
    const body = createControlledBody();
    mock.enqueue(streamResponse(body.stream));
    const stream = client.messages.stream(SESSION_ID, {});
    const result = stream.finalReply().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(600);
    body.push('{"sessionId":"s","events":['); // a chunk, but no event yet
    await vi.advanceTimersByTimeAsync(399);
    expect(stream.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error instanceof APITimeoutError).toBe(true);
    expect((error as Error).message).toBe(
      'No stream event within 1000 ms (after 0 events, request req_stream)',
    );
    expect(mock.requests[0]?.signal.aborted).toBe(true);
  });

  it('a gap between chunks longer than idleTimeoutMs is an APITimeoutError naming what was received', async () => {
    vi.useFakeTimers();
    const { mock, client } = setup({ streamIdleTimeoutMs: 1000 });
    const body = createControlledBody();
    mock.enqueue(streamResponse(body.stream));
    const stream = client.messages.stream(SESSION_ID, {}, { idleTimeoutMs: 500 });
    const result = stream.finalText().catch((e: unknown) => e);
    body.push(streamBody(toolUseEvents().slice(0, 2), { close: false }));
    await vi.advanceTimersByTimeAsync(400);
    body.push(',{"messageStop":{}}');
    await vi.advanceTimersByTimeAsync(499);
    expect(stream.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error instanceof APITimeoutError).toBe(true);
    expect((error as Error).message).toBe(
      'The stream was idle for 500 ms (after 3 events, last messageStop, request req_stream)',
    );
  });

  it('break out of for-await cancels the request', async () => {
    const { mock, client } = setup();
    const body = createControlledBody();
    mock.enqueue(streamResponse(body.stream));
    body.push(streamBody(toolUseEvents().slice(0, 3), { close: false }));
    const stream = client.messages.stream(SESSION_ID, {});
    for await (const event of stream) {
      if (event.type === 'contentBlockDelta') break;
    }
    expect(mock.requests[0]?.signal.aborted).toBe(true);
    expect(stream.aborted).toBe(true);
    expect((await stream.finalReply().catch((e: unknown) => e)) instanceof APIUserAbortError).toBe(true);
  });

  it('abort() rejects the iterator and the final promises with APIUserAbortError', async () => {
    const { mock, client } = setup();
    const body = createControlledBody();
    mock.enqueue(streamResponse(body.stream));
    body.push(streamBody(toolUseEvents().slice(0, 1), { close: false }));
    const stream = client.messages.stream(SESSION_ID, {});
    const errors: unknown[] = [];
    stream.on('error', (e) => errors.push(e));
    const iteration = (async () => {
      for await (const _ of stream) stream.abort();
    })().catch((e: unknown) => e);
    expect((await iteration) instanceof APIUserAbortError).toBe(true);
    expect((await stream.finalText().catch((e: unknown) => e)) instanceof APIUserAbortError).toBe(true);
    expect(errors).toHaveLength(1);
    expect(mock.requests[0]?.signal.aborted).toBe(true);
  });

  it('the caller signal aborts the stream', async () => {
    const { mock, client } = setup();
    mock.hang();
    const controller = new AbortController();
    const stream = client.messages.stream(SESSION_ID, {}, { signal: controller.signal });
    const result = stream.finalReply().catch((e: unknown) => e);
    controller.abort();
    expect((await result) instanceof APIUserAbortError).toBe(true);
  });

  it('no unhandled rejection when only .on() is used and the stream fails', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { mock, client } = setup();
      mock.enqueue(streamResponse([streamBody([{ internalServerException: { message: 'x' } }])]));
      const ended = new Promise<void>((resolve) => {
        client.messages
          .stream(SESSION_ID, {})
          .on('text', () => {})
          .on('end', resolve);
      });
      await ended;
      mock.json(500, { error: { code: 'internal_error', message: 'x' } });
      const stream = client.messages.stream(SESSION_ID, {});
      await new Promise<void>((resolve) => stream.on('end', resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
