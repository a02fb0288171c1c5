// Test scopes (x-parley-test-id), in process:
// - speed: create + buffered turn with and without a test id, alternating rounds on fresh servers
//   (the scoped requests change test every 20 turns, so scopes are made and journaled as in a suite);
// - heap (run with --expose-gc; the bench starts it as a child process): per session with one turn,
//   per idle test scope, and what a reset scope leaves behind.
import { createReferenceServer, type ReferenceServer } from '@parley/reference-server';
import { median } from './bench-utils.js';

const TOKEN = 'parley-demo-token';
const ROUNDS = 7;
const TURNS_PER_TEST = 20;

function request(path: string, body: string | undefined, testId: string | undefined): Request {
  const headers: Record<string, string> = {
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
  };
  if (testId !== undefined) headers['x-parley-test-id'] = testId;
  return new Request(`http://bench.test${path}`, {
    method: 'POST',
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

async function ok(response: Promise<Response>, status: number): Promise<string> {
  const answered = await response;
  const text = await answered.text();
  if (answered.status !== status) throw new Error(`answered ${answered.status}: ${text.slice(0, 200)}`);
  return text;
}

/** Creates a session and sends one buffered turn; `testId` undefined for the default scope. */
async function turn(server: ReferenceServer, testId: string | undefined): Promise<void> {
  const created = await ok(server.fetch(request('/v1/sessions', '{}', testId)), 201);
  const { sessionId } = JSON.parse(created) as { sessionId: string };
  await ok(server.fetch(request(`/v1/messages/${sessionId}`, '{"content":"Hello there"}', testId)), 200);
}

async function turnsPerSecond(scoped: boolean, count: number): Promise<number> {
  const server = createReferenceServer({ journalLimit: 200 });
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    await turn(server, scoped ? `bench.test.ts > suite > test ${Math.floor(i / TURNS_PER_TEST)}` : undefined);
  }
  const elapsed = performance.now() - start;
  await server.close();
  return count / (elapsed / 1000);
}

/** Turns per second without and with a test id, alternating rounds; their medians and ratio. */
export async function benchTestScopes(
  count = 2000,
): Promise<{ unscoped: number; scoped: number; ratio: number; roundRatios: number[] }> {
  const runs = { unscoped: [] as number[], scoped: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first, so neither always runs on a warmer machine.
    const first = round % 2 === 0;
    const a = await turnsPerSecond(!first, count);
    const b = await turnsPerSecond(first, count);
    runs.unscoped.push(first ? a : b);
    runs.scoped.push(first ? b : a);
  }
  // The first round warms both up; it is not counted.
  const unscoped = median(runs.unscoped.slice(1));
  const scoped = median(runs.scoped.slice(1));
  const roundRatios = runs.scoped.slice(1).map((s, i) => s / (runs.unscoped[i + 1] as number));
  return { unscoped, scoped, ratio: scoped / unscoped, roundRatios };
}

function heap(): number {
  const collect = globalThis.gc;
  if (collect === undefined) throw new Error('run with --expose-gc');
  for (let i = 0; i < 4; i++) collect();
  return process.memoryUsage().heapUsed;
}

/** Heap per session (with one buffered turn), per idle test scope, and after resetting the scopes. */
export async function benchScopeHeap(sessions = 5000, scopes = 1000) {
  // The journal is off for the per-session figure (it is bounded on its own: journalMaxBytes).
  const server = createReferenceServer({ journalLimit: 0 });
  await turn(server, undefined);
  const base = heap();
  for (let i = 0; i < sessions; i++) await turn(server, undefined);
  const perSession = (heap() - base) / sessions;
  const journaled = createReferenceServer();
  // A first round of scopes, made and reset, warms up the code and the maps; the second is measured.
  const cycle = async (round: number) => {
    for (let i = 0; i < scopes; i++) await turn(journaled, `round ${round} scope ${i}`);
  };
  const reset = (round: number) => {
    for (let i = 0; i < scopes; i++) journaled.reset({ testId: `round ${round} scope ${i}` });
  };
  await cycle(0);
  reset(0);
  const before = heap();
  await cycle(1);
  const perScope = (heap() - before) / scopes;
  reset(1);
  const afterReset = (heap() - before) / scopes;
  await server.close();
  await journaled.close();
  return { sessions, scopes, perSession, perScope, afterReset };
}

if (process.send !== undefined) {
  process.send(await benchScopeHeap());
  process.exit(0);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchTestScopes(Number(process.env.BENCH_COUNT ?? 2000)));
}
