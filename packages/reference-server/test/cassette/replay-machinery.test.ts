import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { describe, expect, it, vi } from 'vitest';
import { CASSETTE_FORMAT, type Cassette } from '../../src/cassette/cassette-format.js';

const delta = (atMs: number, text: string) => ({
  atMs,
  event: { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } },
});

/** One session: a streamed greeting (three text deltas 50 ms apart) and a buffered tool call. */
const CASSETTE: Cassette = {
  format: CASSETTE_FORMAT,
  version: 1,
  sessions: [
    {
      customizations: null,
      turns: [
        {
          input: { user: [{ type: 'text', text: 'Hi' }] },
          content: [{ type: 'text', text: 'Hello there friend' }],
          stopReason: 'end_turn',
          usage: { inputTokens: 1, outputTokens: 3, totalTokens: 4 },
          events: [
            { atMs: 100, event: { messageStart: { role: 'assistant', index: 1 } } },
            delta(150, 'Hello '),
            delta(200, 'there '),
            delta(250, 'friend'),
            { atMs: 250, event: { contentBlockStop: { contentBlockIndex: 0 } } },
            { atMs: 250, event: { messageStop: { stopReason: 'end_turn' } } },
            {
              atMs: 250,
              event: { metadata: { usage: { inputTokens: 1, outputTokens: 3, totalTokens: 4 } } },
            },
          ],
        },
        {
          input: { user: [{ type: 'text', text: 'Look it up' }] },
          content: [{ type: 'tool_use', id: 'tooluse_lookup', name: 'lookup', input: { q: 'x' } }],
          stopReason: 'tool_use',
        },
        {
          input: {
            toolResults: [
              {
                type: 'tool_result',
                tool_use_id: 'tooluse_lookup',
                content: [{ type: 'json', json: { found: true } }],
                is_error: false,
              },
            ],
          },
          content: [{ type: 'text', text: 'Found it.' }],
          stopReason: 'end_turn',
        },
      ],
    },
  ],
};

function setup(pace: 'recorded' | 'fast') {
  const clock = new ManualClock(0);
  const server = createReferenceServer({
    clock,
    replay: { cassette: CASSETTE, pace },
    heartbeatTimeoutMs: 1_000,
  });
  const client = new Parley({
    baseUrl: 'http://offline.test',
    token: 'parley-demo-token',
    maxRetries: 0,
    fetch: server.fetch,
  });
  return { clock, server, client };
}

/** Starts a stream and counts the assistant's text deltas as they arrive. */
function countDeltas(client: Parley, sessionId: string, body: { content?: string }) {
  const stream = client.messages.stream(sessionId, body);
  const seen = { deltas: 0 };
  const done = (async () => {
    let assistant = false;
    for await (const item of stream) {
      // Items are the event payloads with their kind in `type`.
      const event = item as { type: string; role?: string; delta?: { text?: unknown } };
      if (event.type === 'messageStart') assistant = event.role === 'assistant';
      if (assistant && event.type === 'contentBlockDelta' && typeof event.delta?.text === 'string')
        seen.deltas++;
    }
  })();
  return { stream, seen, done };
}

describe('replay pacing', () => {
  it("pace 'recorded' waits on the server's clock as long as the recording did between events", async () => {
    const { clock, client } = setup('recorded');
    const { sessionId } = await client.sessions.create();
    const { seen, done } = countDeltas(client, sessionId, { content: 'Hi' });
    await vi.waitFor(() => expect(clock.pendingSleeps).toBe(1));
    expect(seen.deltas).toBe(0);
    await clock.advance(150); // messageStart at 100, the first delta at 150
    await vi.waitFor(() => expect(seen.deltas).toBe(1));
    await clock.advance(49);
    expect(seen.deltas).toBe(1);
    await clock.advance(1);
    await vi.waitFor(() => expect(seen.deltas).toBe(2));
    await clock.advance(50);
    await done;
    expect(seen.deltas).toBe(3);
  });

  it("pace 'fast' plays every event without waiting on the clock", async () => {
    const { clock, client } = setup('fast');
    const { sessionId } = await client.sessions.create();
    const { seen, done } = countDeltas(client, sessionId, { content: 'Hi' });
    await done;
    expect(seen.deltas).toBe(3);
    expect(clock.now()).toBe(0);
  });
});

describe("the server's own machinery during a replay", () => {
  it('an abort mid-stream does not use up the turn: resuming plays it again in full', async () => {
    const { clock, client } = setup('recorded');
    const { sessionId } = await client.sessions.create();
    const { stream, seen, done } = countDeltas(client, sessionId, { content: 'Hi' });
    await vi.waitFor(() => expect(clock.pendingSleeps).toBe(1));
    await clock.advance(150);
    await vi.waitFor(() => expect(seen.deltas).toBe(1));
    stream.abort();
    await done.catch(() => undefined);
    const resumed = client.messages.send(sessionId, {});
    await vi.waitFor(() => expect(clock.pendingSleeps).toBe(1));
    await clock.advance(250);
    const reply = await resumed;
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Hello there friend' }]);
  });

  it('an injected fault answers before the model; the next try gets the recorded answer', async () => {
    const { server, client } = setup('fast');
    const { sessionId } = await client.sessions.create();
    server.faults.next({ status: 503, match: { method: 'POST' } });
    const faulted = await client.messages.send(sessionId, { content: 'Hi' }).catch((e: unknown) => e);
    expect(faulted).toMatchObject({ status: 503, code: 'injected_fault' });
    const reply = await client.messages.send(sessionId, { content: 'Hi' });
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Hello there friend' }]);
    expect(server.journal.entries().length).toBeGreaterThanOrEqual(3);
  });

  it('a stream cut by a fault reaches the client short while the server keeps the recorded answer', async () => {
    const { server, client } = setup('fast');
    const { sessionId } = await client.sessions.create();
    // The user message's three events, the assistant's messageStart and one delta, then the cut.
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 5 });
    const cut = await client.messages
      .stream(sessionId, { content: 'Hi' })
      .finalReply()
      .catch((e: unknown) => e);
    expect(cut).toMatchObject({ name: 'StreamError', eventCount: 5 });
    const stored = await client.messages.export(sessionId);
    expect(stored.at(-1)?.content).toEqual([{ type: 'text', text: 'Hello there friend' }]);
    // The turn was played: the next message plays the next recorded turn.
    const next = await client.messages.send(sessionId, { content: 'Look it up' });
    expect(next.pendingTools.map((tool) => tool.name)).toEqual(['lookup']);
  });

  it('tool calls of a replayed turn keep their recorded id, and heartbeats and timeouts act as always', async () => {
    const { clock, client } = setup('fast');
    const { sessionId } = await client.sessions.create();
    await client.messages.send(sessionId, { content: 'Hi' });
    const asked = await client.messages.send(sessionId, { content: 'Look it up' });
    expect(asked.pendingTools.map((t) => [t.requestId, t.name, t.input])).toEqual([
      ['tooluse_lookup', 'lookup', { q: 'x' }],
    ]);
    await client.tools.heartbeat(sessionId, 'tooluse_lookup');
    expect((await client.tools.get(sessionId, 'tooluse_lookup')).state).toBe('PROCESSING');
    await clock.advance(1_001);
    expect((await client.tools.get(sessionId, 'tooluse_lookup')).state).toBe('PENDING');
    await client.tools.respond(sessionId, 'tooluse_lookup', { found: true });
    const answer = await client.messages.send(sessionId, {});
    expect(answer.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Found it.' }]);
  });

  it('a rewind then the same message again gets the next recorded turn, with a fresh tool use id', async () => {
    const cassette: Cassette = {
      ...CASSETTE,
      sessions: [
        { customizations: null, turns: [CASSETTE.sessions[0]!.turns[1]!, CASSETTE.sessions[0]!.turns[1]!] },
      ],
    };
    const server = createReferenceServer({ replay: cassette });
    const offline = new Parley({
      baseUrl: 'http://offline.test',
      token: 'parley-demo-token',
      maxRetries: 0,
      fetch: server.fetch,
    });
    const { sessionId } = await offline.sessions.create();
    const first = await offline.messages.send(sessionId, { content: 'Look it up' });
    expect(first.pendingTools[0]?.requestId).toBe('tooluse_lookup');
    await offline.messages.rewind(sessionId, first.messages[0]!.index);
    const again = await offline.messages.send(sessionId, { content: 'Look it up' });
    expect(again.pendingTools[0]?.name).toBe('lookup');
    expect(again.pendingTools[0]?.requestId).not.toBe('tooluse_lookup');
  });
});
