// Benchmark: the cost of the SDK in a tool loop, against the same requests written by hand on
// plain ky (ky's defaults) and on raw `fetch`, in the same run. One loop is five requests over
// loopback HTTP to a reference server: create a session, send a message that asks for a tool,
// heartbeat, respond, resume. The SDK does them with `sessions.create` + `runToolLoop`; the plain-ky
// loop with `ky.create({ prefixUrl, headers })` and `.post(path, { json }).json()`; the raw loop
// with the global `fetch` and `JSON.parse`. The server runs in a child process
// (reference-server-process.ts), so the CPU time measured is this process's: the client's alone.
// Beside them, the same SDK loop on a client with a tracer that records nothing (the API's no-op:
// `trace.getTracer` with no provider registered): what having a tracer costs when nothing is
// sampled. With BENCH_BASELINE=<path to another build's index.js> (an earlier commit's SDK, e.g.
// before a change), its loop runs in the same rounds too, to compare before and after in one run.
// Each round times the loops in alternating order; a ratio is the median of the per-round
// ratios (one round against the same round's baseline), which a busy or noisy machine moves far
// less than separate medians. Prints, never asserts. Run: npx --yes pnpm@10 bench (from the
// repository root, after `pnpm build`: the SDK and the server run from their built files, as users
// run them). BENCH_ROUNDS / BENCH_LOOPS change the size.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { trace } from '@opentelemetry/api';
import { defineTool, jsonSchema, Parley } from '@parley/sdk';
import ky from 'ky';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 41);
const LOOPS = Number(process.env.BENCH_LOOPS ?? 100);
const TOKEN = 'parley-demo-token';
const CONTENT = '/tool ping {"n":1}\n/then pong';

const ping = defineTool({
  name: 'ping',
  description: 'Answers pong',
  input: jsonSchema<{ n: number }>({
    type: 'object',
    properties: { n: { type: 'number' } },
    required: ['n'],
  }),
  run: () => ({ pong: true }),
});

// The child inherits this process's flags (tsx's loader), so it runs the TypeScript file as is.
const server = fork(new URL('./reference-server-process.ts', import.meta.url));
const [started] = (await once(server, 'message')) as [{ url: string }];
const base = started.url;

/** Clears the server's sessions between timed runs (outside the timing). */
async function resetServer(): Promise<void> {
  server.send('reset');
  await once(server, 'message');
}

const client = new Parley({ baseUrl: base, token: TOKEN, logLevel: 'off' });
// No provider is registered: the API hands out its no-op tracer, whose spans record nothing.
const noopTraced = new Parley({
  baseUrl: base,
  token: TOKEN,
  logLevel: 'off',
  tracer: trace.getTracer('bench'),
});

/** The SDK's loop on `sdk`: this build's `Parley`, or the baseline build's. */
async function sdkLoop(sdk: Pick<Parley, 'sessions' | 'runToolLoop'>): Promise<void> {
  const { sessionId } = await sdk.sessions.create({ tools: [ping] });
  const result = await sdk.runToolLoop({ sessionId, content: CONTENT });
  if (result.finalText !== 'pong') throw new Error(`unexpected answer ${result.finalText}`);
}

const BASELINE = process.env.BENCH_BASELINE;
const baseline = BASELINE
  ? new ((await import(pathToFileURL(BASELINE).href)) as { Parley: typeof Parley }).Parley({
      baseUrl: base,
      token: TOKEN,
      logLevel: 'off',
    })
  : undefined;

type Post = (path: string, body: unknown) => Promise<unknown>;

/** The loop's five requests, each sent with `send`; checks the final answer. */
async function fiveRequests(send: Post): Promise<void> {
  const { sessionId } = (await send('v1/sessions', {
    customizations: { extensions: { tools: { ping: ping.definition } } },
  })) as { sessionId: string };
  const reply = (await send(`v1/messages/${sessionId}`, { content: CONTENT })) as {
    pendingTools: Array<{ requestId: string }>;
  };
  const requestId = reply.pendingTools[0]?.requestId ?? '';
  await send(`v1/tools/request/${sessionId}/${requestId}/heartbeat`, {
    state: 'PROCESSING',
    heartbeat: Date.now(),
  });
  await send(`v1/tools/response/${sessionId}/${requestId}`, { response: { pong: true, state: 'COMPLETE' } });
  const answer = (await send(`v1/messages/${sessionId}`, {})) as { messages: Array<{ content: unknown[] }> };
  if (!JSON.stringify(answer.messages.at(-1)?.content).includes('pong')) throw new Error('unexpected answer');
}

const headers = {
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json',
};

async function fetchPost(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** ky as its README shows it: defaults (retry, timeout, HTTP errors thrown), JSON in and out. */
const api = ky.create({ prefixUrl: base, headers: { authorization: `Bearer ${TOKEN}` } });
const kyPost: Post = (path, body) => api.post(path, { json: body }).json();

type Name = 'sdk' | 'noopTracer' | 'ky' | 'raw' | 'baseline';
const loops: Partial<Record<Name, () => Promise<void>>> = {
  sdk: () => sdkLoop(client),
  noopTracer: () => sdkLoop(noopTraced),
  ky: () => fiveRequests(kyPost),
  raw: () => fiveRequests(fetchPost),
  ...(baseline && { baseline: () => sdkLoop(baseline) }),
};

/** Wall time and CPU time (this process: the client) per loop, in µs. */
async function timeLoops(loop: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < LOOPS; i++) await loop();
  const used = process.cpuUsage(cpu);
  const wall = ((performance.now() - start) * 1000) / LOOPS;
  await resetServer();
  return { wall, cpu: (used.user + used.system) / LOOPS };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface Timing {
  /** Median µs per loop. */
  wallUs: number;
  cpuUs: number;
}

export interface ToolLoopResult {
  timings: Partial<Record<Name, Timing>>;
  /** Medians of the per-round CPU ratios (`sdkToBaseline` only with BENCH_BASELINE). */
  cpu: {
    sdkToKy: number;
    kyToRaw: number;
    sdkToRaw: number;
    noopTracerToSdk: number;
    sdkToBaseline?: number;
  };
}

/** `ROUNDS` rounds, each timing the loops in alternating order; warms all up first. */
export async function measureToolLoop(): Promise<ToolLoopResult> {
  const names = Object.keys(loops) as Name[];
  const runs = new Map<Name, Array<{ wall: number; cpu: number }>>(names.map((name) => [name, []]));
  for (const name of names) await timeLoops(loops[name]!);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 1 ? [...names].reverse() : names;
    for (const name of order) runs.get(name)!.push(await timeLoops(loops[name]!));
  }
  const timing = (name: Name): Timing => ({
    wallUs: median(runs.get(name)!.map((r) => r.wall)),
    cpuUs: median(runs.get(name)!.map((r) => r.cpu)),
  });
  const ratio = (a: Name, b: Name) =>
    median(runs.get(a)!.map((r, i) => r.cpu / (runs.get(b)![i]?.cpu ?? Number.NaN)));
  return {
    timings: Object.fromEntries(names.map((name) => [name, timing(name)])),
    cpu: {
      sdkToKy: ratio('sdk', 'ky'),
      kyToRaw: ratio('ky', 'raw'),
      sdkToRaw: ratio('sdk', 'raw'),
      noopTracerToSdk: ratio('noopTracer', 'sdk'),
      ...(baseline && { sdkToBaseline: ratio('sdk', 'baseline') }),
    },
  };
}

const r = await measureToolLoop();
const line = (name: string, t: Timing | undefined) =>
  t
    ? `  ${name}  CPU ${t.cpuUs.toFixed(0)} µs per loop (${(t.cpuUs / 5).toFixed(0)} per request), wall ${t.wallUs.toFixed(0)} µs\n`
    : '';
const goal = (value: number, most: number) =>
  `x${value.toFixed(2)} (goal <= ${most}: ${value <= most ? 'met' : 'NOT met'})`;
const { sdkToBaseline } = r.cpu;
console.log(
  `tool loop over loopback, server in a child process (create, send, heartbeat, respond, resume; ${ROUNDS} rounds of ${LOOPS}; CPU time of the client process, medians of per-round ratios):\n` +
    line('runToolLoop               ', r.timings.sdk) +
    line('runToolLoop, no-op tracer ', r.timings.noopTracer) +
    line(`runToolLoop, baseline     `, r.timings.baseline) +
    line('plain ky                  ', r.timings.ky) +
    line('raw fetch                 ', r.timings.raw) +
    `  runToolLoop / plain ky: ${goal(r.cpu.sdkToKy, 1.15)}\n` +
    `  with a no-op tracer / without: ${goal(r.cpu.noopTracerToSdk, 1.05)}\n` +
    (sdkToBaseline === undefined
      ? ''
      : `  runToolLoop / baseline (${BASELINE}): x${sdkToBaseline.toFixed(2)}\n`) +
    `  plain ky / raw fetch:   x${r.cpu.kyToRaw.toFixed(2)}\n` +
    `  runToolLoop / raw fetch: x${r.cpu.sdkToRaw.toFixed(2)}`,
);
server.disconnect();
