// Bench: the client CPU time of one heartbeat request, the SDK's against plain ky's, and what each
// ingredient of the SDK's call adds: a caller's signal (the tool loop passes its run's signal to every
// request), a per-call time limit, maxRetries 0 (what the automatic heartbeat passes). CHAINS chains
// run at once, each sending CALLS beats in a row to one reference server (child process, so the
// CPU is the client's). Prints, never asserts. Run after `pnpm build`:
// npx --yes pnpm@10 --filter @parley/sdk bench:request (BENCH_CHAINS, BENCH_CALLS and BENCH_ROUNDS
// change the size; BENCH_ONLY=<name> runs one way, e.g. under `node --cpu-prof`).
import { fork } from 'node:child_process';
import { once, setMaxListeners } from 'node:events';
import { defineTool, jsonSchema, Parley } from '@parley/sdk';
import ky from 'ky';

const CHAINS = Number(process.env.BENCH_CHAINS ?? 200);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ONLY = process.env.BENCH_ONLY;
const TOKEN = 'parley-demo-token';

const server = fork(new URL('./reference-server-process.ts', import.meta.url));
const [started] = (await once(server, 'message')) as [{ url: string }];
const base = started.url;
const client = new Parley({ baseUrl: base, token: TOKEN, logLevel: 'off' });
const api = ky.create({ prefixUrl: base, headers: { authorization: `Bearer ${TOKEN}` } });

// One pending call per chain to beat on.
const work = defineTool({
  name: 'work',
  description: 'Works',
  input: jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'number' } } }),
  run: () => ({}),
});
const calls = await Promise.all(
  Array.from({ length: CHAINS }, async () => {
    const { sessionId } = (await api
      .post('v1/sessions', { json: { customizations: { extensions: { tools: { work: work.definition } } } } })
      .json()) as { sessionId: string };
    const reply = (await api
      .post(`v1/messages/${sessionId}`, { json: { content: '/tool work {"n":1}' } })
      .json()) as {
      pendingTools: Array<{ requestId: string }>;
    };
    return { sessionId, requestId: reply.pendingTools[0]?.requestId ?? '' };
  }),
);

// One app-wide signal given to every call: each call in flight listens to it.
const longLived = new AbortController().signal;
setMaxListeners(CHAINS + 10, longLived);
type Beat = (call: { sessionId: string; requestId: string }) => Promise<unknown>;
const ways: Record<string, Beat> = {
  'plain ky': ({ sessionId, requestId }) =>
    api
      .post(`v1/tools/request/${sessionId}/${requestId}/heartbeat`, {
        json: { state: 'PROCESSING', heartbeat: Date.now() },
      })
      .json(),
  'plain ky, signal': ({ sessionId, requestId }) =>
    api
      .post(`v1/tools/request/${sessionId}/${requestId}/heartbeat`, {
        json: { state: 'PROCESSING', heartbeat: Date.now() },
        signal: longLived,
      })
      .json(),
  SDK: ({ sessionId, requestId }) => client.tools.heartbeat(sessionId, requestId),
  'SDK, signal': ({ sessionId, requestId }) =>
    client.tools.heartbeat(sessionId, requestId, { signal: longLived }),
  'SDK, as a beat': ({ sessionId, requestId }) =>
    client.tools.heartbeat(sessionId, requestId, {
      signal: new AbortController().signal,
      timeoutMs: 1_000,
      maxRetries: 0,
    }),
};

async function time(beat: Beat): Promise<number> {
  const cpu = process.cpuUsage();
  await Promise.all(
    calls.map(async (call) => {
      for (let i = 0; i < CALLS; i++) await beat(call);
    }),
  );
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / (CHAINS * CALLS);
}

const names = Object.keys(ways).filter((name) => ONLY === undefined || name === ONLY);
const runs = new Map<string, number[]>(names.map((name) => [name, []]));
for (const name of names) await time(ways[name]!);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 1 ? [...names].reverse() : names;
  for (const name of order) runs.get(name)!.push(await time(ways[name]!));
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const plain = median(runs.get('plain ky') ?? []);
console.log(
  `one heartbeat, ${CHAINS} chains of ${CALLS} at once, ${ROUNDS} rounds (client CPU, median µs per request):`,
);
for (const [name, values] of runs) {
  const us = median(values);
  console.log(`  ${name.padEnd(18)} ${us.toFixed(0).padStart(5)} µs  x${(us / plain).toFixed(2)} plain ky`);
}
server.disconnect();
