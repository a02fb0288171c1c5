// One app-wide AbortSignal given to every call: each call must let go of it when it ends, or the
// signal keeps every stream (and its reply) alive, and Node warns after 10 listeners. Counted, not
// timed: the signal's `abort` listeners are read with `events.getEventListeners`.
import { getEventListeners } from 'node:events';
import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMockFetch, streamResponse } from './helpers/mock-fetch.js';
import { SESSION_ID, streamBody, toolUseEvents } from './helpers/stream-fixtures.js';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

function mockClient() {
  const mock = createMockFetch();
  return { mock, client: new Parley({ baseUrl: 'http://parley.test', token: 'tok', fetch: mock.fetch }) };
}

describe('a long-lived signal is released when a call ends', () => {
  it('1,000 streams read to their end leave no listener on the signal', async () => {
    const { mock, client } = mockClient();
    const app = new AbortController();
    for (let i = 0; i < 1_000; i++) {
      mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
      const stream = client.messages.stream(SESSION_ID, { content: 'Weather?' }, { signal: app.signal });
      // Listening while it runs (so the count below can tell a release from never listening).
      if (i === 0) expect(listeners(app.signal)).toBe(1);
      await stream.finalReply();
    }
    expect(listeners(app.signal)).toBe(0);
  });

  it('streams that fail, are aborted, or are left with break release the signal too', async () => {
    const { mock, client } = mockClient();
    const app = new AbortController();
    mock.enqueue(streamResponse([streamBody(toolUseEvents(), { close: false })]));
    await expect(
      client.messages.stream(SESSION_ID, { content: 'Weather?' }, { signal: app.signal }).finalReply(),
    ).rejects.toThrow('The stream ended before the body was complete');

    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    const aborted = client.messages.stream(SESSION_ID, { content: 'Weather?' }, { signal: app.signal });
    aborted.abort();
    await expect(aborted.finalReply()).rejects.toThrow('Stream was aborted');

    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    const left = client.messages.stream(SESSION_ID, { content: 'Weather?' }, { signal: app.signal });
    for await (const _event of left) break;

    expect(listeners(app.signal)).toBe(0);
    expect(app.signal.aborted).toBe(false);
  });

  it('1,000 buffered sends leave no listener on the signal', async () => {
    const { mock, client } = mockClient();
    const app = new AbortController();
    const reply = { messages: [], stopReason: 'end_turn', pendingTools: [], heartbeatTimeoutMs: 15_000 };
    for (let i = 0; i < 1_000; i++) {
      mock.json(200, { ...reply, sessionId: SESSION_ID });
      await client.messages.send(SESSION_ID, { content: 'Hi' }, { signal: app.signal });
    }
    expect(listeners(app.signal)).toBe(0);
  });

  it('100 tool loops, streamed, with a tool each, leave no listener on the signal', async () => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: server.fetch,
    });
    const getWeather = defineTool({
      name: 'get_weather',
      description: 'Current weather for a city',
      input: z.object({ city: z.string() }),
      run: ({ city }) => ({ city, temperatureC: 18 }),
    });
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    const app = new AbortController();
    for (let i = 0; i < 100; i++) {
      const run = client.runToolLoop({
        sessionId,
        content: '/tool get_weather {"city":"Paris"}\n/then It is 18 degrees.',
        stream: true,
        signal: app.signal,
      });
      if (i === 0) expect(listeners(app.signal)).toBe(1);
      const { status, finalText } = await run;
      expect([status, finalText]).toEqual(['done', 'It is 18 degrees.']);
    }
    expect(listeners(app.signal)).toBe(0);
  });
});
