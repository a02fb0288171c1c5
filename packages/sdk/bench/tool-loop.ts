// Benchmark: the cost per request of the SDK in a tool loop, against raw `fetch` in the same run.
// One loop is five requests over loopback HTTP to a reference server (startServer, in this
// process): create a session, send a message that asks for a tool, heartbeat, respond, resume.
// The SDK does them with `sessions.create` + `runToolLoop`; the baseline sends the same five
// requests with the global `fetch` and `JSON.parse`. A second baseline sends them through ky the
// way the SDK does (a ky instance whose hook sends each request as URL and init), without the
// SDK's own work (timeouts, aborts, retries, checks, the tool loop): the floor any client that
// keeps ky pays. Each round times all three, in alternating order, and divides by the raw time of
// the same round; the ratios printed are the medians of those per-round ratios (CPU time of this
// process: client and server), which a busy or noisy machine moves far less than separate medians.
// Prints, never asserts. Run: npx --yes pnpm@10 bench (from the repository root, after
// `pnpm build`: the SDK and the server run from their built files, as users run them).
// BENCH_ROUNDS / BENCH_LOOPS change the size.
import { startServer } from '@parley/reference-server/node';
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

const running = await startServer({ port: 0 });
const base = running.url;
const client = new Parley({ baseUrl: base, token: TOKEN, logLevel: 'off' });

async function sdkLoop(): Promise<void> {
  const { sessionId } = await client.sessions.create({ tools: [ping] });
  const result = await client.runToolLoop({ sessionId, content: CONTENT });
  if (result.finalText !== 'pong') throw new Error(`unexpected answer ${result.finalText}`);
}

const headers = {
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json',
};

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

type Post = (path: string, body: unknown) => Promise<unknown>;

/** The loop's five requests, each sent with `send`; checks the final answer. */
async function fiveRequests(send: Post): Promise<void> {
  const { sessionId } = (await send('/v1/sessions', {
    customizations: { extensions: { tools: { ping: ping.definition } } },
  })) as { sessionId: string };
  const reply = (await send(`/v1/messages/${sessionId}`, { content: CONTENT })) as {
    pendingTools: Array<{ requestId: string }>;
  };
  const requestId = reply.pendingTools[0]?.requestId ?? '';
  await send(`/v1/tools/request/${sessionId}/${requestId}/heartbeat`, {
    state: 'PROCESSING',
    heartbeat: Date.now(),
  });
  await send(`/v1/tools/response/${sessionId}/${requestId}`, { response: { pong: true, state: 'COMPLETE' } });
  const answer = (await send(`/v1/messages/${sessionId}`, {})) as { messages: Array<{ content: unknown[] }> };
  if (!JSON.stringify(answer.messages.at(-1)?.content).includes('pong')) throw new Error('unexpected answer');
}

const fetchLoop = () => fiveRequests(post);

/** The five requests through a ky instance as the SDK uses it, and nothing else. */
const kyClient = ky.create({
  prefixUrl: base,
  retry: 0,
  throwHttpErrors: false,
  hooks: {
    beforeRequest: [
      (request, { context }) => {
        for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
        return fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: context.body as string,
        });
      },
    ],
  },
});

async function kyPost(path: string, body: unknown): Promise<unknown> {
  const response = await kyClient(path.slice(1), { method: 'POST', context: { body: JSON.stringify(body) } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

const kyLoop = () => fiveRequests(kyPost);

/** Wall time and CPU time (this process: client and server) per loop, in µs. */
async function timeLoops(loop: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < LOOPS; i++) await loop();
  const used = process.cpuUsage(cpu);
  const wall = ((performance.now() - start) * 1000) / LOOPS;
  running.server.reset();
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
  /** Medians of the per-round ratios to raw fetch. */
  ratio: number;
  cpuRatio: number;
}

export interface ToolLoopResult {
  sdk: Timing;
  ky: Timing;
  raw: Timing;
}

/** `ROUNDS` rounds, each timing the three loops in alternating order; warms all up first. */
export async function measureToolLoop(): Promise<ToolLoopResult> {
  const loops = { sdk: sdkLoop, ky: kyLoop, raw: fetchLoop };
  for (const loop of Object.values(loops)) await timeLoops(loop);
  type Run = { wall: number; cpu: number };
  const runs: Record<keyof typeof loops, Run[]> = { sdk: [], ky: [], raw: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = Object.keys(loops) as Array<keyof typeof loops>;
    if (round % 2 === 1) order.reverse();
    for (const name of order) runs[name].push(await timeLoops(loops[name]));
  }
  const timing = (name: keyof typeof loops): Timing => ({
    wallUs: median(runs[name].map((r) => r.wall)),
    cpuUs: median(runs[name].map((r) => r.cpu)),
    ratio: median(runs[name].map((r, i) => r.wall / (runs.raw[i]?.wall ?? Number.NaN))),
    cpuRatio: median(runs[name].map((r, i) => r.cpu / (runs.raw[i]?.cpu ?? Number.NaN))),
  });
  return { sdk: timing('sdk'), ky: timing('ky'), raw: timing('raw') };
}

const r = await measureToolLoop();
const line = (name: string, t: Timing) =>
  `  ${name}  ${t.wallUs.toFixed(0)} µs per loop, ${(t.wallUs / 5).toFixed(0)} per request (CPU ${t.cpuUs.toFixed(0)} µs per loop): ` +
  `x${t.ratio.toFixed(2)} raw fetch in time, x${t.cpuRatio.toFixed(2)} in CPU`;
console.log(
  `tool loop over loopback (create, send, heartbeat, respond, resume; ${ROUNDS} rounds of ${LOOPS}, medians of per-round ratios):\n` +
    `${line('runToolLoop       ', r.sdk)} (goal <= 1.15: ${r.sdk.cpuRatio <= 1.15 ? 'met' : 'NOT met'})\n` +
    `${line('ky alone (floor)  ', r.ky)}\n` +
    `${line('raw fetch         ', r.raw)}\n` +
    `  the SDK's own work over the ky floor: x${(r.sdk.cpuRatio / r.ky.cpuRatio).toFixed(2)} in CPU`,
);
await running.close();
