import { type ChaosOptions, createReferenceServer, isInjectedDropError } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { entryFault } from '../../src/testing/journal-page-text.js';
import { drawLatency, requestKey } from '../../src/testing/seeded-chaos.js';
import { seededRandom } from '../../src/utils/seeded-random.js';
import { BASE_URL, DEMO_TOKEN, type Harness, harness } from '../helpers/api.js';
import { readAll, stillPending } from './helpers.js';

/** What a request came back as: its status, or `drop` for a dropped connection. */
async function outcome(h: Harness, method: string, path: string): Promise<number | 'drop'> {
  try {
    return (await h.call(method, path)).status;
  } catch (error) {
    if (isInjectedDropError(error)) return 'drop';
    throw error;
  }
}

const CHAOS: ChaosOptions = {
  rate: 0.3,
  seed: 42,
  kinds: ['status', 'drop'],
  match: { method: 'GET', path: '/v1/messages/*' },
};

/** Per session (in order of creation): the outcome of each of its `reads` message exports. */
async function run(h: Harness, sessions: number, reads: number, interleaved: boolean) {
  const ids: string[] = [];
  for (let i = 0; i < sessions; i++) ids.push(await h.createSession());
  const outcomes = ids.map(() => [] as Array<number | 'drop'>);
  const order = interleaved
    ? Array.from({ length: reads }, () => ids.map((_, s) => s)).flat()
    : ids.flatMap((_, s) => Array.from({ length: reads }, () => s));
  for (const s of order) outcomes[s]?.push(await outcome(h, 'GET', `/v1/messages/${ids[s]}`));
  return outcomes;
}

describe('seeded chaos', () => {
  it('the same seed and the same requests give the same faults, per session, whatever the order of sessions', async () => {
    const one = await run(harness({ chaos: CHAOS }), 4, 25, false);
    const other = await run(harness({ chaos: CHAOS }), 4, 25, true);
    expect(other).toEqual(one);
    const faulted = one.flat().filter((o) => o !== 200);
    expect(faulted.length).toBeGreaterThan(0);
    expect(new Set(faulted)).toEqual(new Set([503, 'drop']));
    // Every session makes the same requests, so each gets the same faults.
    for (const session of one) expect(session).toEqual(one[0]);
  });

  it('another seed gives other faults', async () => {
    const a = await run(harness({ chaos: CHAOS }), 1, 60, false);
    const b = await run(harness({ chaos: { ...CHAOS, seed: 7 } }), 1, 60, false);
    expect(b).not.toEqual(a);
  });

  it('a share close to the rate of the matching requests get a fault; others get none', async () => {
    const h = harness({
      chaos: { rate: 0.05, seed: 1, kinds: ['status'], match: { path: '/v1/messages/*' } },
    });
    const sessionId = await h.createSession();
    const statuses: number[] = [];
    for (let i = 0; i < 1000; i++) statuses.push((await h.call('GET', `/v1/messages/${sessionId}`)).status);
    const share = statuses.filter((s) => s === 503).length / statuses.length;
    expect(share).toBeGreaterThan(0.03);
    expect(share).toBeLessThan(0.07);
    // Not matched: never a fault.
    for (let i = 0; i < 50; i++) expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
  });

  it('the journal marks each fault chaos gave: the fault, its kind, the seed and the request number', async () => {
    const h = harness({ chaos: { rate: 1, seed: 9, kinds: ['status'], status: 429, retryAfterSeconds: 3 } });
    const res = await h.call('GET', '/v1/sessions');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    await h.call('GET', '/v1/sessions');
    expect(h.server.journal.entries().map((e) => [e.fault, e.chaos])).toEqual([
      [
        { status: 429, retryAfterSeconds: 3 },
        { kind: 'status', seed: 9, n: 0 },
      ],
      [
        { status: 429, retryAfterSeconds: 3 },
        { kind: 'status', seed: 9, n: 1 },
      ],
    ]);
    // The journal page's fault column and detail view.
    expect(entryFault(h.server.journal.last()!)).toBe('chaos (seed 9, #1): status=429, retryAfterSeconds=3');
  });

  it('cut-after only ever goes to streamed replies; other requests draw another kind', async () => {
    const h = harness({ chaos: { rate: 1, seed: 3, kinds: ['cut-after', 'malformed'], cutAfterEvents: 2 } });
    const sessionId = await h.createSession().catch(() => undefined);
    expect(sessionId).toBeUndefined(); // the create answered malformed JSON
    expect(h.server.journal.last()?.chaos?.kind).toBe('malformed');
    h.server.faults.chaos({ rate: 1, seed: 3, kinds: ['cut-after'] });
    expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
    expect(h.server.journal.last()?.chaos).toBeUndefined();
    const created = await h.call('POST', '/v1/sessions');
    expect(created.status).toBe(201);
    const streamed = await h.server.fetch(
      new Request(`${BASE_URL}/v1/messages/${created.body.sessionId}/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Hi' }),
      }),
    );
    const { text } = await readAll(streamed);
    expect(() => JSON.parse(text)).toThrow(); // cut: its JSON left open
    expect(h.server.journal.last()).toMatchObject({
      fault: { cutAfterEvents: 3 },
      chaos: { kind: 'cut-after', seed: 3, n: 0 },
    });
  });

  it('latency waits on the server clock for a draw from the distribution', async () => {
    const h = harness({
      chaos: {
        rate: 1,
        seed: 5,
        kinds: ['latency'],
        latency: { distribution: 'uniform', minMs: 100, maxMs: 200 },
      },
    });
    const pending = h.call('GET', '/v1/sessions');
    await expect.poll(() => h.clock.pendingSleeps).toBe(1);
    const latency = h.server.journal.last()?.fault?.latencyMs ?? -1;
    expect(latency).toBeGreaterThanOrEqual(100);
    expect(latency).toBeLessThanOrEqual(200);
    await h.clock.advance(latency - 1);
    expect(await stillPending(pending)).toBe(true);
    await h.clock.advance(1);
    expect((await pending).status).toBe(200);
  });

  it('a queued fault or a fault header wins over chaos; reset puts the server option back, false turns it off', async () => {
    const h = harness({ chaos: { rate: 1, seed: 1, kinds: ['status'] } });
    h.server.faults.next({ status: 418 });
    expect((await h.call('GET', '/v1/sessions')).status).toBe(418);
    expect(h.server.journal.last()?.chaos).toBeUndefined();
    h.server.faults.chaos(false);
    expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
    h.server.reset();
    expect((await h.call('GET', '/v1/sessions')).status).toBe(503);
    expect(h.server.journal.last()?.chaos).toEqual({ kind: 'status', seed: 1, n: 0 });
  });

  it.each([
    [{ rate: 1.5, seed: 1 }, /rate must be a number from 0 to 1/],
    [{ rate: 0.1, seed: 1.5 }, /seed must be an integer/],
    [
      { rate: 0.1, seed: 1, kinds: ['fire'] },
      /kinds must list one or more of status, drop, cut-after, malformed, latency, not "fire"/,
    ],
    [{ rate: 0.1, seed: 1, kinds: [] }, /kinds must list one or more/],
    [{ rate: 0.1, seed: 1, status: 200 }, /status \(status\) must be an integer from 400 to 599/],
    [
      { rate: 0.1, seed: 1, latency: { distribution: 'uniform', minMs: 5, maxMs: 1 } },
      /latency minMs must be at most maxMs/,
    ],
    [
      { rate: 0.1, seed: 1, latency: { distribution: 'normal' } },
      /"normal" is not fixed, uniform or lognormal/,
    ],
  ])('bad options %j are refused when the server is created', (chaos, message) => {
    expect(() => createReferenceServer({ chaos: chaos as ChaosOptions })).toThrow(message);
  });
});

describe('the parts of seeded chaos', () => {
  it('a request key puts placeholders for session and tool-call ids', () => {
    expect(requestKey('/v1/messages/sess_1/stream')).toEqual({
      session: 'sess_1',
      template: '/v1/messages/{sessionId}/stream',
    });
    expect(requestKey('/v1/tools/response/sess_2/tooluse_9')).toEqual({
      session: 'sess_2',
      template: '/v1/tools/response/{sessionId}/{requestId}',
    });
    expect(requestKey('/v1/sessions')).toEqual({ session: '', template: '/v1/sessions' });
  });

  it('the random source repeats for a seed and key, and differs for another', () => {
    const draws = (seed: number, key: string) => Array.from({ length: 5 }, seededRandom(seed, key));
    expect(draws(42, 'a')).toEqual(draws(42, 'a'));
    expect(draws(42, 'a')).not.toEqual(draws(42, 'b'));
    expect(draws(42, 'a').every((u) => u >= 0 && u < 1)).toBe(true);
  });

  it('lognormal latency: the median of many draws is near medianMs, with a tail above it', () => {
    const random = seededRandom(1, 'latency');
    const draws = Array.from({ length: 4001 }, () =>
      drawLatency({ distribution: 'lognormal', medianMs: 200, sigma: 0.5 }, random),
    ).sort((a, b) => a - b);
    const median = draws[2000] ?? 0;
    expect(median).toBeGreaterThan(180);
    expect(median).toBeLessThan(220);
    expect(draws.at(-1)).toBeGreaterThan(600);
  });
});
