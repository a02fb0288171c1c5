// One app-wide AbortSignal given to every call: each call must let go of it when it ends, or the
// signal keeps every stream (and its reply) alive, and Node warns after 10 listeners. Counted, not
// timed: the signal's `abort` listeners are read with `events.getEventListeners`.
import { getEventListeners } from 'node:events';
import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley, type ToolApprovalAnswer } from '@parley/sdk';
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

  it('100 streams whose request fails before the body is read, seen only through withResponse(), leave no listener', async () => {
    const { mock, client } = mockClient();
    const app = new AbortController();
    for (let i = 0; i < 100; i++) {
      mock.json(404, { error: { code: 'session_not_found', message: 'No such session' } });
      const stream = client.messages.stream(SESSION_ID, { content: 'Hi' }, { signal: app.signal });
      await expect(stream.withResponse()).rejects.toMatchObject({ status: 404 });
    }
    expect(listeners(app.signal)).toBe(0);
    expect(app.signal.aborted).toBe(false);
  });

  it('a stream with recover whose request fails before it is read lets go until it is read, then listens while it recovers', async () => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: server.fetch,
    });
    const { sessionId } = await client.sessions.create();
    const app = new AbortController();
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, status: 503 });
    const stream = client.messages.stream(
      sessionId,
      { content: '/say Back online.' },
      { signal: app.signal, recover: { backoff: () => 0 } },
    );
    await expect(stream.withResponse()).rejects.toMatchObject({ status: 503 });
    expect(listeners(app.signal)).toBe(0);
    const reply = stream.finalText();
    expect(listeners(app.signal)).toBe(1);
    expect(await reply).toBe('Back online.');
    expect(listeners(app.signal)).toBe(0);
  });

  it('100 streams that recover from a model error leave no listener on the signal', async () => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: server.fetch,
    });
    const { sessionId } = await client.sessions.create();
    const app = new AbortController();
    for (let i = 0; i < 100; i++) {
      const stream = client.messages.stream(
        sessionId,
        { content: `/say Answer ${i}.\n/fail-once The model is overloaded` },
        { signal: app.signal, recover: { backoff: () => 0 } },
      );
      const recovered: number[] = [];
      stream.on('recovered', ({ attempt }) => recovered.push(attempt));
      expect(await stream.finalText()).toBe(`Answer ${i}.`);
      expect(recovered).toEqual([1]);
    }
    expect(listeners(app.signal)).toBe(0);
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

  it('100 buffered tool loops whose tool waits for approval leave no listener on the signal', async () => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: server.fetch,
    });
    const sendEmail = defineTool({
      name: 'send_email',
      description: 'Sends an email',
      input: z.object({ to: z.string() }),
      needsApproval: true,
      run: () => ({ sent: true }),
    });
    const { sessionId } = await client.sessions.create({ tools: [sendEmail] });
    const app = new AbortController();
    for (let i = 0; i < 100; i++) {
      let answer: (answer: ToolApprovalAnswer) => void = () => {};
      let asked: () => void = () => {};
      const question = new Promise<void>((resolve) => {
        asked = resolve;
      });
      const run = client.runToolLoop({
        sessionId,
        content: '/tool send_email {"to":"ada@example.com"}\n/then Sent.',
        signal: app.signal,
        approve: () =>
          new Promise<ToolApprovalAnswer>((resolve) => {
            answer = resolve;
            asked();
          }),
      });
      await question;
      // While the person thinks, the run holds one listener on the caller's signal.
      expect(listeners(app.signal)).toBe(1);
      answer(i % 2 === 0 ? { approved: true } : { approved: false, reason: 'Not now' });
      expect((await run).status).toBe('done');
    }
    expect(listeners(app.signal)).toBe(0);
  });
});
