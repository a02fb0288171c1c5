import { createReferenceServer } from '@parley/reference-server';
import { NotFoundError, Parley, StreamError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';

function setup() {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  return { server, client };
}

describe('SDK against the in-process reference server', () => {
  it('creates, lists, sends, streams, exports and deletes', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create({ customizations: { agentId: 'weather' } });
    expect((await client.sessions.list()).map((s) => s.sessionId)).toContain(sessionId);

    const reply = await client.messages.send(sessionId, { content: 'Hello there' });
    expect(reply).toMatchObject({ sessionId, stopReason: 'end_turn', pendingTools: [] });
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'You said: Hello there' }]);

    const stream = client.messages.stream(sessionId, { content: '/say The quick brown fox.' });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    await expect(stream.finalText()).resolves.toBe('The quick brown fox.');
    expect(deltas.join('')).toBe('The quick brown fox.');
    expect((await stream.finalReply()).sessionId).toBe(sessionId);

    const messages = await client.messages.export(sessionId);
    expect(messages.map((m) => m.index)).toEqual([0, 1, 2, 3]);

    await client.sessions.delete(sessionId);
    expect((await client.messages.export(sessionId).catch((e: unknown) => e)) instanceof NotFoundError).toBe(
      true,
    );
  });

  it('streams a tool call, settles it, and resumes', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create({ customizations: { agentId: 'weather' } });
    const stream = client.messages.stream(sessionId, {
      content: '/tool get_weather {"city":"Paris"}\n/then It is 18 degrees in Paris.',
    });
    const toolInputs: unknown[] = [];
    stream.on('toolUse', (block) => toolInputs.push(block.input));
    const pending = await stream.pendingTools();
    expect(toolInputs).toEqual([{ city: 'Paris' }]);
    expect(pending).toMatchObject([{ name: 'get_weather', input: { city: 'Paris' }, state: 'PENDING' }]);
    const requestId = pending[0]?.requestId ?? '';

    await client.tools.heartbeat(sessionId, requestId);
    expect((await client.tools.get(sessionId, requestId)).state).toBe('PROCESSING');
    await client.tools.respond(sessionId, requestId, { temperatureC: 18 });
    // An identical repeat is harmless.
    await client.tools.respond(sessionId, requestId, { temperatureC: 18 });

    const resumed = client.messages.stream(sessionId, {});
    await expect(resumed.finalText()).resolves.toBe('It is 18 degrees in Paris.');
  });

  it('a mid-stream model failure is a StreamError with the code', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const stream = client.messages.stream(sessionId, { content: '/say Partial answer\n/fail boom' });
    const error = await stream.finalReply().catch((e: unknown) => e);
    expect(error instanceof StreamError).toBe(true);
    expect(error).toMatchObject({ code: 'model_error' });
  });

  it('fail reports an ERROR and rewind retracts', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: '/tool lookup {}' });
    const requestId = reply.pendingTools[0]?.requestId ?? '';
    await client.tools.fail(sessionId, requestId, 'not available');
    expect(await client.tools.get(sessionId, requestId)).toMatchObject({
      state: 'ERROR',
      error: 'not available',
    });
    const rewind = await client.messages.rewind(sessionId, 0);
    expect(rewind.retracted).toEqual([0, 1]);
    expect(await client.messages.export(sessionId)).toEqual([]);
    expect(await client.messages.export(sessionId, { includeDeleted: true })).toHaveLength(2);
  });
});
