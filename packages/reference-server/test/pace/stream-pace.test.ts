import {
  createReferenceServer,
  loadScript,
  ManualClock,
  type ModelEvent,
  pacedEvents,
  scriptedModel,
  standInModel,
  turn,
  turnToEvents,
} from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { fakeRequest } from '../model/helpers.js';
import { driveUntil, kindOf, timed } from './helpers.js';

const START = 1_000_000;
const AUTH = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };

describe('streaming pace of the stand-in and scripted models', () => {
  it('the first event comes ttftMs after the call, each word 1000/wordsPerSecond ms after the one before', async () => {
    const clock = new ManualClock(START);
    const request = fakeRequest('/say one two three', { clock });
    const events = await timed(
      clock,
      turnToEvents(turn.text('one two three'), { ...request, pace: { ttftMs: 400, wordsPerSecond: 40 } }),
    );
    expect(events.map(({ at, kind }) => [at - START, kind])).toEqual([
      [400, 'messageStart'],
      [425, 'contentBlockDelta'],
      [450, 'contentBlockDelta'],
      [475, 'contentBlockDelta'],
      [475, 'contentBlockStop'],
      [475, 'messageStop'],
      [475, 'metadata'],
    ]);
  });

  it('each fragment of a tool input takes one word of time', async () => {
    const clock = new ManualClock(START);
    const request = { ...fakeRequest('x', { clock }), pace: { wordsPerSecond: 10 } };
    const events = await timed(clock, turnToEvents(turn.toolUse('t', { k: 'v' }), request));
    const deltas = events.filter((e) => e.kind === 'contentBlockDelta').map((e) => e.at - START);
    // {"k":"v"}: three fragments, 100 ms each, after a first event at once.
    expect(deltas).toEqual([100, 200, 300]);
  });

  it('jitter is seeded: the same seed gives the same timings, another seed others, each wait within the jitter', async () => {
    const timesWith = async (seed: number) => {
      const clock = new ManualClock(START);
      const request = {
        ...fakeRequest('x', { clock }),
        pace: { ttftMs: 200, wordsPerSecond: 20, jitter: 0.5, seed },
      };
      const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
      return (await timed(clock, turnToEvents(turn.text(words), request)))
        .filter((e) => e.kind !== 'contentBlockStop' && e.kind !== 'messageStop' && e.kind !== 'metadata')
        .map((e) => e.at - START);
    };
    const first = await timesWith(7);
    expect(await timesWith(7)).toEqual(first);
    expect(await timesWith(8)).not.toEqual(first);
    // ttft 200 +-50%, then 50 ms per word +-50% (and a millisecond of rounding).
    expect(first[0]).toBeGreaterThanOrEqual(100);
    expect(first[0]).toBeLessThanOrEqual(300);
    const gaps = first.slice(1).map((at, i) => at - (first[i] as number));
    expect(gaps.every((gap) => gap >= 24 && gap <= 76)).toBe(true);
    expect(new Set(gaps).size).toBeGreaterThan(3);
  });

  it('a scripted turn’s pace wins over the request’s', async () => {
    const clock = new ManualClock(START);
    const request = { ...fakeRequest('x', { clock }), pace: { ttftMs: 1000 } };
    const events = await timed(clock, turnToEvents(turn.text('hi', { pace: { ttftMs: 10 } }), request));
    expect(events[0]?.at).toBe(START + 10);
  });

  it('pacedEvents paces the events of a model of your own; no pace passes them at once', async () => {
    const clock = new ManualClock(START);
    const own = async function* (): AsyncGenerator<ModelEvent> {
      yield { messageStart: { role: 'assistant' } };
      yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'two words' } } };
    };
    const request = fakeRequest('x', { clock });
    const paced = await timed(clock, pacedEvents(own(), { ttftMs: 5, wordsPerSecond: 100 }, request));
    expect(paced.map((e) => e.at - START)).toEqual([5, 25]);
    const unpaced = await timed(clock, pacedEvents(own(), undefined, request));
    expect(unpaced.map((e) => e.at - START)).toEqual([25, 25]);
  });

  it('a script file’s turn may carry a pace, checked like the rest of the file', () => {
    const script = loadScript({ turns: [{ text: 'Hi', pace: { ttftMs: 400, wordsPerSecond: 40 } }] });
    expect(script).toEqual([{ text: 'Hi', pace: { ttftMs: 400, wordsPerSecond: 40 } }]);
    expect(() => loadScript({ turns: [{ text: 'Hi', pace: { wordsPerSecond: -1 } }] })).toThrow(
      /turns\[0\]\.pace\.wordsPerSecond/,
    );
  });
});

describe('streaming pace of a server and of a session', () => {
  async function streamTimes(
    server: ReturnType<typeof createReferenceServer>,
    clock: ManualClock,
    sessionId: string,
    content: string,
  ) {
    let finished = false;
    const reading = (async () => {
      const response = await server.fetch(
        new Request(`http://parley.test/v1/messages/${sessionId}/stream`, {
          method: 'POST',
          headers: AUTH,
          body: JSON.stringify({ content }),
        }),
      );
      await response.text();
      finished = true;
    })();
    await driveUntil(clock, () => finished);
    await reading;
    const times = server.journal.last({ path: '/v1/messages/*/stream' })?.response?.eventTimes ?? [];
    // The assistant's events: after the user message's own four.
    return times.slice(4, -1).map(({ atMs, kind }) => [atMs, kind]);
  }

  async function session(server: ReturnType<typeof createReferenceServer>): Promise<string> {
    const response = await server.fetch(
      new Request('http://parley.test/v1/sessions', { method: 'POST', headers: AUTH }),
    );
    return ((await response.json()) as { sessionId: string }).sessionId;
  }

  it('the pace option paces every session of the server, on its clock (exact event times in the journal)', async () => {
    const clock = new ManualClock(START);
    const server = createReferenceServer({ clock, pace: { ttftMs: 400, wordsPerSecond: 40 } });
    expect(server.pace).toEqual({ ttftMs: 400, wordsPerSecond: 40 });
    const id = await session(server);
    expect(await streamTimes(server, clock, id, '/say a b')).toEqual([
      [400, 'messageStart'],
      [425, 'contentBlockDelta'],
      [450, 'contentBlockDelta'],
      [450, 'contentBlockStop'],
      [450, 'messageStop'],
      [450, 'metadata'],
    ]);
  });

  it('setPace with a sessionId paces that session only, over the server’s pace; reset puts the option back', async () => {
    const clock = new ManualClock(START);
    const server = createReferenceServer({ clock, pace: { ttftMs: 100 } });
    const slow = await session(server);
    const other = await session(server);
    server.setPace({ ttftMs: 30, wordsPerSecond: 100 }, { sessionId: slow });
    expect((await streamTimes(server, clock, slow, '/say a b')).slice(0, 3)).toEqual([
      [30, 'messageStart'],
      [40, 'contentBlockDelta'],
      [50, 'contentBlockDelta'],
    ]);
    expect((await streamTimes(server, clock, other, '/say a'))[0]).toEqual([100, 'messageStart']);
    server.setPace({ ttftMs: 7 });
    expect(server.pace).toEqual({ ttftMs: 7 });
    server.reset();
    expect(server.pace).toEqual({ ttftMs: 100 });
  });

  it('scripted models use the server’s pace, and a turn’s own pace wins', async () => {
    const clock = new ManualClock(START);
    const server = createReferenceServer({
      clock,
      pace: { ttftMs: 50 },
      model: scriptedModel([turn.text('a'), turn.text('b', { pace: { ttftMs: 5 } })]),
    });
    const id = await session(server);
    expect((await streamTimes(server, clock, id, 'one'))[0]).toEqual([50, 'messageStart']);
    expect((await streamTimes(server, clock, id, 'two'))[0]).toEqual([5, 'messageStart']);
  });

  it('a negative or non-numeric pace figure is a TypeError naming the field', () => {
    expect(() => createReferenceServer({ pace: { wordsPerSecond: -1 } })).toThrow(
      /createReferenceServer: pace\.wordsPerSecond: must be a number >= 0, got -1/,
    );
    expect(() => createReferenceServer({ pace: { ttftMs: Number.NaN } })).toThrow(/pace\.ttftMs/);
    expect(() => createReferenceServer({ pace: { jitter: 2 } })).toThrow(
      /pace\.jitter: must be a number from 0 to 1/,
    );
    const server = createReferenceServer();
    // @ts-expect-error: a string where a number belongs
    expect(() => server.setPace({ ttftMs: '400ms' })).toThrow(/setPace: pace\.ttftMs/);
    // @ts-expect-error: an unknown key
    expect(() => server.setPace({ tps: 40 })).toThrow(/setPace: pace\.tps: unknown option/);
  });

  it('without a pace the stand-in model answers at once', async () => {
    const clock = new ManualClock(START);
    const events = await timed(clock, standInModel(fakeRequest('/say a b c', { clock })));
    expect(new Set(events.map((e) => e.at))).toEqual(new Set([START]));
    expect(events.map((e) => kindOf(e.event))[0]).toBe('messageStart');
  });
});
