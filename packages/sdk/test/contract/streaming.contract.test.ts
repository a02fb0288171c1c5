import {
  APIUserAbortError,
  type Message,
  type MessageReply,
  type Parley,
  StreamError,
  type StreamEventItem,
  type StreamEventOf,
} from '@parley/sdk';
import { describe, expect, it, vi } from 'vitest';
import { rejection, textOf } from './assertions.js';
import { FAIL_ONCE_PROMPT, RECOVERED_TEXT } from './contract-model.js';
import { FUTURE_EVENT_KIND, FUTURE_FIELD, futureFieldsFetch } from './fetch-wrappers.js';
import {
  capabilities,
  NEEDS_DIRECTIVES,
  NEEDS_DISCONNECT,
  NEEDS_INTERNALS,
  targets,
  useTarget,
} from './target.js';

async function collect(stream: AsyncIterable<StreamEventItem>): Promise<StreamEventItem[]> {
  const events: StreamEventItem[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function toolUseStartOf(event: StreamEventOf<'contentBlockStart'>) {
  return (event.start as { toolUse?: { toolUseId: string; name: string } }).toolUse;
}

function toolInputFragmentOf(event: StreamEventOf<'contentBlockDelta'>): string {
  return (event.delta as { toolUse?: { input: string } }).toolUse?.input ?? '';
}

/** A reply with what differs between two runs of the same conversation (ids, times) blanked. */
function comparable(
  reply: Pick<MessageReply, 'messages' | 'stopReason' | 'pendingTools' | 'heartbeatTimeoutMs' | 'usage'>,
) {
  const ids = new Map<string, string>();
  const id = (value: string) => {
    if (!ids.has(value)) ids.set(value, `id${ids.size}`);
    return ids.get(value);
  };
  return {
    keys: Object.keys(reply).sort(),
    stopReason: reply.stopReason,
    heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
    hasUsage: reply.usage !== undefined,
    messages: reply.messages.map((m: Message) => ({
      role: m.role,
      deletedAt: m.deletedAt,
      content: m.content.map((b) => (b.type === 'tool_use' ? { ...b, id: id(b.id) } : b)),
    })),
    pendingTools: reply.pendingTools.map((p) => ({
      name: p.name,
      input: p.input,
      state: p.state,
      requestId: id(p.requestId),
    })),
  };
}

describe.each(targets())('streaming [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  it('events arrive typed and framed: each message between messageStart and messageStop, replyStop last', async () => {
    const { clientA } = target;
    const { sessionId } = await clientA.sessions.create();
    const stream = clientA.messages.stream(sessionId, { content: 'Hello, streaming contract' });
    const events = await collect(stream);
    expect(stream.sessionId).toBe(sessionId);
    expect(events[0]).toMatchObject({ type: 'messageStart', role: 'user', index: 0 });
    expect(events.at(-1)?.type).toBe('replyStop');
    const starts = events.filter((e) => e.type === 'messageStart');
    const stops = events.filter((e) => e.type === 'messageStop');
    expect(starts.length).toBe(stops.length);
    expect(starts.map((e) => e.role)).toEqual(['user', 'assistant']);
    // messageStop.stopReason only on assistant messages.
    const [userStop, assistantStop] = stops;
    expect(userStop && 'stopReason' in userStop ? userStop.stopReason : undefined).toBeUndefined();
    expect(assistantStop).toMatchObject({ stopReason: 'end_turn' });
    // The user message text is in the stream too.
    const firstStop = events.findIndex((e) => e.type === 'messageStop');
    const userText = events
      .slice(0, firstStop)
      .map((e) => (e.type === 'contentBlockDelta' && 'text' in e.delta ? e.delta.text : ''))
      .join('');
    expect(userText).toBe('Hello, streaming contract');
    expect(events.some((e) => e.type === 'metadata')).toBe(true);
    expect(events.filter((e) => e.type === 'unknown')).toEqual([]);
  });

  it('unknown fields and unknown event kinds pass through (buffered and streamed)', async () => {
    const client = target.client({ token: target.tokenA, fetch: futureFieldsFetch(target.fetch) });
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: 'future' });
    expect((reply as Record<string, unknown>)[FUTURE_FIELD]).toBe(1);
    expect((reply.messages[0] as Record<string, unknown>)[FUTURE_FIELD]).toBe('x');

    const stream = client.messages.stream(sessionId, { content: 'future again' });
    const events = await collect(stream);
    expect(events[0]).toEqual({
      type: 'unknown',
      kind: FUTURE_EVENT_KIND,
      payload: { [FUTURE_FIELD]: true },
    });
    expect(events.at(-1)?.type).toBe('replyStop');
    await expect(stream.stopReason()).resolves.toBe('end_turn');
  });

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('text deltas join to the final text', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const text = 'The quick brown fox jumps over the lazy dog.';
      const stream = clientA.messages.stream(sessionId, { content: `/say ${text}` });
      const deltas: string[] = [];
      stream.on('text', (delta) => deltas.push(delta));
      await expect(stream.finalText()).resolves.toBe(text);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(text);
    });

    it('tool input fragments join to the tool input, parsed at contentBlockStop', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const input = { city: 'Paris', days: [1, 2, 3], nested: { unit: 'C' } };
      const stream = clientA.messages.stream(sessionId, {
        content: `/tool get_weather ${JSON.stringify(input)}`,
      });
      const blocks: unknown[] = [];
      stream.on('toolUse', (block) => blocks.push(block));
      const events = await collect(stream);
      const start = events.find((e) => e.type === 'contentBlockStart');
      const toolUse = start?.type === 'contentBlockStart' ? toolUseStartOf(start) : undefined;
      if (start?.type !== 'contentBlockStart' || !toolUse) throw new Error('no toolUse start');
      expect(toolUse.name).toBe('get_weather');
      const fragments = events
        .filter((e) => e.type === 'contentBlockDelta' && e.contentBlockIndex === start.contentBlockIndex)
        .map((e) => (e.type === 'contentBlockDelta' ? toolInputFragmentOf(e) : ''));
      expect(JSON.parse(fragments.join(''))).toEqual(input);
      expect(blocks).toEqual([{ type: 'tool_use', id: toolUse.toolUseId, name: 'get_weather', input }]);
      const pending = await stream.pendingTools();
      expect(pending).toMatchObject([{ requestId: toolUse.toolUseId, name: 'get_weather', input }]);
    });

    it('the replyStop event equals the stream’s final reply, and what the buffered endpoint gives', async () => {
      const { clientA } = target;
      for (const content of [
        '/say Same answer both ways.',
        '/say Let me check.\n/tool get_weather {"city":"Oslo"}',
      ]) {
        const buffered = await clientA.messages.send((await clientA.sessions.create()).sessionId, {
          content,
        });
        const { sessionId } = await clientA.sessions.create();
        const stream = clientA.messages.stream(sessionId, { content });
        const events = await collect(stream);
        const replyStop = events.at(-1);
        if (replyStop?.type !== 'replyStop') throw new Error('no replyStop');
        const { type: _type, ...fields } = replyStop;
        const final = await stream.finalReply();
        expect(final).toEqual({ sessionId, ...fields });
        const { sessionId: _bufferedSession, ...bufferedFields } = buffered;
        expect(comparable(fields)).toEqual(comparable(bufferedFields));
        expect(Object.keys(final).sort()).toEqual(Object.keys(buffered).sort());
      }
    });

    it('a tool result after a resume streams as a user message with a toolResult block', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool get_weather {"city":"Rome"}' });
      const requestId = reply.pendingTools[0]?.requestId ?? '';
      await clientA.tools.respond(sessionId, requestId, { tempC: 25 });
      const stream = clientA.messages.stream(sessionId, {});
      const events = await collect(stream);
      expect(events[0]).toMatchObject({ type: 'messageStart', role: 'user' });
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'contentBlockStart',
          start: { toolResult: { toolUseId: requestId, status: 'success' } },
        }),
      );
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'contentBlockDelta',
          delta: { toolResult: [{ json: { tempC: 25 } }] },
        }),
      );
      await expect(stream.stopReason()).resolves.toBe('end_turn');
    });

    it('a model failure mid-stream is a StreamError after the events before it; the session stays usable', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const stream = clientA.messages.stream(sessionId, {
        content: '/say Partial answer\n/fail Upstream overloaded',
      });
      const deltas: string[] = [];
      stream.on('text', (delta) => deltas.push(delta));
      const error = await rejection(stream.finalReply());
      expect(error instanceof StreamError).toBe(true);
      expect(error).toMatchObject({ code: 'model_error', exceptionKind: 'modelStreamErrorException' });
      expect(deltas.join('')).toBe('Partial answer');
      // The user message stays; the partial assistant message is retracted.
      const live = await clientA.messages.export(sessionId);
      expect(live.map((m) => m.role)).toEqual(['user']);
      const all = await clientA.messages.export(sessionId, { includeDeleted: true });
      expect(all.at(-1)).toMatchObject({ role: 'assistant', deletedAt: expect.any(Number) });
      // Next send works.
      await expect(
        clientA.messages.stream(sessionId, { content: '/say Still here.' }).finalText(),
      ).resolves.toBe('Still here.');
    });

    it('deleting a session while its reply streams aborts the reply with an exception event', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      // A long server-clock delay between deltas: the reply waits until the delete aborts it.
      const stream = clientA.messages.stream(sessionId, { content: '/delay 600000\n/say one two three' });
      await new Promise<void>((resolve) => stream.once('text', () => resolve()));
      await clientA.sessions.delete(sessionId);
      const error = await rejection(stream.finalReply());
      expect(error instanceof StreamError).toBe(true);
      expect(error).toMatchObject({ code: 'session_not_found' });
    });
  });

  describe.runIf(caps.internals)(NEEDS_INTERNALS, () => {
    it('after a mid-stream model failure a resume retries the answer', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const error = await rejection(
        clientA.messages.stream(sessionId, { content: FAIL_ONCE_PROMPT }).finalReply(),
      );
      expect(error).toMatchObject({ name: 'StreamError', code: 'model_error' });
      const resumed = clientA.messages.stream(sessionId, {});
      await expect(resumed.finalText()).resolves.toBe(RECOVERED_TEXT);
      const live = await clientA.messages.export(sessionId);
      expect(live.map((m) => [m.role, textOf(m)])).toEqual([
        ['user', FAIL_ONCE_PROMPT],
        ['assistant', RECOVERED_TEXT],
      ]);
    });
  });

  describe.runIf(caps.disconnects && caps.directives)(NEEDS_DISCONNECT, () => {
    it('a disconnect mid-stream leaves the session consistent: user message kept, message in progress retracted', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const stream = clientA.messages.stream(sessionId, { content: '/delay 600000\n/say one two three' });
      await new Promise<void>((resolve) => stream.once('text', () => resolve()));
      stream.abort();
      expect((await rejection(stream.finalReply())) instanceof APIUserAbortError).toBe(true);

      // The server notices the closed connection on its own schedule: wait for the retraction.
      const all = await vi.waitFor(
        async () => {
          const messages = await clientA.messages.export(sessionId, { includeDeleted: true });
          expect(messages.at(-1)).toMatchObject({ role: 'assistant', deletedAt: expect.any(Number) });
          return messages;
        },
        { timeout: 5_000, interval: 20 },
      );
      expect(all.map((m) => [m.role, m.deletedAt === null])).toEqual([
        ['user', true],
        ['assistant', false],
      ]);
      expect(textOf(all[0])).toBe('/delay 600000\n/say one two three');
      expect((await clientA.messages.export(sessionId)).map((m) => m.role)).toEqual(['user']);

      const next = await nextSendWorks(clientA, sessionId);
      expect(next.messages[0]?.index).toBeGreaterThan(all.at(-1)?.index ?? -1);
    });
  });
});

async function nextSendWorks(client: Parley, sessionId: string): Promise<MessageReply> {
  const reply = await client.messages.send(sessionId, { content: '/say Back again.' });
  expect(textOf(reply.messages.at(-1))).toBe('Back again.');
  return reply;
}
