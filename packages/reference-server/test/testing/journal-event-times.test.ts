import { FAULT_HEADER, turn } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { EventTimeline, MAX_EVENT_TIMES } from '../../src/testing/event-timeline.js';
import { eventTimeLines } from '../../src/testing/journal-page-text.js';
import { BASE_URL, DEMO_TOKEN, harness } from '../helpers/api.js';
import { readAll } from './helpers.js';

function streamRequest(sessionId: string, content: string, fault?: string): Request {
  return new Request(`${BASE_URL}/v1/messages/${sessionId}/stream`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${DEMO_TOKEN}`,
      'content-type': 'application/json',
      ...(fault === undefined ? {} : { [FAULT_HEADER]: fault }),
    },
    body: JSON.stringify({ content }),
  });
}

describe("a streamed reply's timing in the journal", () => {
  it('keeps when each event was written, atMs after the request arrived, on the server clock', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const response = await h.server.fetch(streamRequest(sessionId, '/say one two', 'latency=100, delay=10'));
    const body = readAll(response);
    const stream = () => h.server.journal.last({ path: '/v1/messages/*/stream' })?.response;
    while (stream()?.complete !== true) await h.clock.advance(5);
    await body;
    const times = stream()?.eventTimes ?? [];
    expect(times.length).toBe(stream()?.events);
    expect(times[0]).toEqual({ atMs: 100, kind: 'messageStart' });
    expect(times.map((t) => t.atMs)).toEqual(times.map((_, i) => 100 + 10 * i));
    expect(times.at(-1)?.kind).toBe('replyStop');
  });

  it('shows where a stream slowed: the gap before the delayed delta', async () => {
    const h = harness();
    h.server.script([turn.text('one two three', { delayMs: 250 })]);
    const sessionId = await h.createSession();
    const body = readAll(await h.server.fetch(streamRequest(sessionId, 'hi')));
    const stream = () => h.server.journal.last({ path: '/v1/messages/*/stream' })?.response;
    while (stream()?.complete !== true) await h.clock.advance(50);
    await body;
    const times = stream()?.eventTimes ?? [];
    // The echo of the user's message comes first; the assistant's three deltas are the last ones.
    const deltas = times
      .filter((t) => t.kind === 'contentBlockDelta')
      .map((t) => t.atMs)
      .slice(-3);
    expect(deltas.slice(1).map((at, i) => at - (deltas[i] ?? 0))).toEqual([250, 250]);
    const marked = eventTimeLines(stream()!).filter((line) => line.includes('<- longest gap'));
    expect(marked).toEqual([
      expect.stringMatching(/ {2}250 ms {2}\+250 +contentBlockDelta {2}<- longest gap$/),
    ]);
  });

  it('a stream cut by a fault ends its times at the last event the client got', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await readAll(await h.server.fetch(streamRequest(sessionId, '/say one two', 'cut-after=3')));
    await expect
      .poll(() => h.server.journal.last({ path: '/v1/messages/*/stream' })?.response?.eventTimes?.length)
      .toBe(3);
  });
});

describe('the event timeline', () => {
  it(`keeps the first ${MAX_EVENT_TIMES - 1} times and the newest, and says it left some out`, () => {
    const timeline = new EventTimeline();
    for (let i = 0; i < MAX_EVENT_TIMES + 5; i++)
      timeline.add(i === MAX_EVENT_TIMES + 4 ? 'replyStop' : 'x', i);
    const times = timeline.times();
    expect(times).toHaveLength(MAX_EVENT_TIMES);
    expect(times[MAX_EVENT_TIMES - 2]).toEqual({ atMs: MAX_EVENT_TIMES - 2, kind: 'x' });
    expect(times.at(-1)).toEqual({ atMs: MAX_EVENT_TIMES + 4, kind: 'replyStop' });
    expect(timeline.truncated).toBe(true);
  });

  it("the journal page's lines: each event's time, the gap before it, the longest gap marked", () => {
    const lines = eventTimeLines({
      status: 200,
      complete: false,
      events: 6,
      eventTimes: [
        { atMs: 0, kind: 'messageStart' },
        { atMs: 5, kind: 'contentBlockDelta' },
        { atMs: 1205, kind: 'contentBlockDelta' },
        { atMs: 1300, kind: 'replyStop' },
      ],
      eventTimesTruncated: true,
    });
    expect(lines).toEqual([
      'Event times (ms after the request arrived, +gap since the event before):',
      '     0 ms  +0     messageStart',
      '     5 ms  +5     contentBlockDelta',
      '  1205 ms  +1200  contentBlockDelta  <- longest gap',
      '  ... 2 events not kept ...',
      '  1300 ms         replyStop',
    ]);
  });
});
