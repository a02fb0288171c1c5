// Replaying a cassette of 1,000 turns against one of 10,000, in the same run: wall time and the
// heap the replay keeps (the server with its cassette, after every turn was played) should both
// grow 10 times, not more. Runs in a child with --expose-gc (server-bench.ts forks it), so the heap
// figures are after a full collection.
import { type Cassette, createReferenceServer, type ReplayConfig } from '@parley/reference-server';
import { median } from './bench-utils.js';

const TOKEN = 'parley-demo-token';
const TURNS_PER_SESSION = 10;
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const gc = (globalThis as { gc?: () => void }).gc;

/** `turns` turns in sessions of ten, each session told apart by its `sessionData`. */
function cassetteOf(turns: number): Cassette {
  const sessions = turns / TURNS_PER_SESSION;
  return {
    format: 'parley-cassette',
    version: 1,
    sessions: Array.from({ length: sessions }, (_, n) => ({
      customizations: { sessionData: { n } },
      turns: Array.from({ length: TURNS_PER_SESSION }, (_, t) => ({
        input: { user: [{ type: 'text' as const, text: `Question ${t}` }] },
        content: [{ type: 'text' as const, text: `Answer ${t} of session ${n}: sunny, 18 degrees.` }],
        stopReason: 'end_turn',
      })),
    })),
  };
}

function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Replays every turn of a `turns`-turn cassette; the milliseconds it took and the heap kept after. */
async function replayAll(turns: number, match: 'order' | 'sessionData') {
  const before = heapUsed();
  const cassette = cassetteOf(turns);
  const replay: ReplayConfig = { cassette, match: { sessions: match } };
  // The journal keeps nothing: what is measured is the replay, not the journal's ring.
  const server = createReferenceServer({ extensions: false, journalLimit: 0, replay });
  const sessions = turns / TURNS_PER_SESSION;
  const start = performance.now();
  // Keyed sessions are created in reverse order: each must find its own recording.
  for (let i = 0; i < sessions; i++) {
    const n = match === 'order' ? i : sessions - 1 - i;
    const created = await server.fetch(
      new Request('http://bench.test/v1/sessions', {
        method: 'POST',
        headers,
        body: JSON.stringify({ customizations: { sessionData: { n } } }),
      }),
    );
    const { sessionId } = (await created.json()) as { sessionId: string };
    for (let t = 0; t < TURNS_PER_SESSION; t++) {
      const reply = await server.fetch(
        new Request(`http://bench.test/v1/messages/${sessionId}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ content: `Question ${t}` }),
        }),
      );
      if (reply.status !== 200) throw new Error(`send answered ${reply.status}: ${await reply.text()}`);
      await reply.text();
    }
  }
  const ms = performance.now() - start;
  if ((server.cassette?.unused() ?? []).length > 0) throw new Error('a recording was not replayed');
  const kept = heapUsed() - before;
  await server.close();
  return { ms, kept };
}

export interface ReplayScale {
  small: number;
  large: number;
  /** Per match mode: time and heap of the large replay over the small one (10 for linear). */
  order: { timeRatio: number; heapRatio: number; smallMs: number; largeMs: number; largeKept: number };
  sessionData: { timeRatio: number; heapRatio: number; smallMs: number; largeMs: number; largeKept: number };
}

const ROUNDS = 3;

export async function benchReplayScale(small = 1000, large = 10_000): Promise<ReplayScale> {
  const measure = async (match: 'order' | 'sessionData') => {
    // A large warm-up: the small runs are measured with the code as hot as in the large ones.
    await replayAll(large, match);
    const a: Array<{ ms: number; kept: number }> = [];
    const b: Array<{ ms: number; kept: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      a.push(await replayAll(small, match));
      b.push(await replayAll(large, match));
    }
    const smallMs = median(a.map((r) => r.ms));
    const largeMs = median(b.map((r) => r.ms));
    const smallKept = median(a.map((r) => r.kept));
    const largeKept = median(b.map((r) => r.kept));
    return { timeRatio: largeMs / smallMs, heapRatio: largeKept / smallKept, smallMs, largeMs, largeKept };
  };
  return { small, large, order: await measure('order'), sessionData: await measure('sessionData') };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchReplayScale();
  if (process.send !== undefined) process.send(result);
  else console.log(JSON.stringify(result, null, 2));
}
