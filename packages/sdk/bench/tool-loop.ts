// Benchmark: the cost per request of the SDK in a tool loop, against raw `fetch` in the same run.
// One loop is five requests over loopback HTTP to a reference server (startServer, in this
// process): create a session, send a message that asks for a tool, heartbeat, respond, resume.
// The SDK does them with `sessions.create` + `runToolLoop`; the baseline sends the same five
// requests with the global `fetch` and `JSON.parse`. Rounds alternate the two (and which goes
// first) so both meet the same machine load; the ratio is of the medians. Prints, never asserts.
// Run: npx --yes pnpm@10 bench (from the repository root). BENCH_ROUNDS / BENCH_LOOPS change the size.
import { startServer } from '@parley/reference-server/node';
import { defineTool, jsonSchema, Parley } from '@parley/sdk';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
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

async function fetchLoop(): Promise<void> {
  const definition = { ping: ping.definition };
  const { sessionId } = (await post('/v1/sessions', {
    customizations: { extensions: { tools: definition } },
  })) as {
    sessionId: string;
  };
  const reply = (await post(`/v1/messages/${sessionId}`, { content: CONTENT })) as {
    pendingTools: Array<{ requestId: string }>;
  };
  const requestId = reply.pendingTools[0]?.requestId ?? '';
  await post(`/v1/tools/request/${sessionId}/${requestId}/heartbeat`, {
    state: 'PROCESSING',
    heartbeat: Date.now(),
  });
  await post(`/v1/tools/response/${sessionId}/${requestId}`, { response: { pong: true, state: 'COMPLETE' } });
  const answer = (await post(`/v1/messages/${sessionId}`, {})) as { messages: Array<{ content: unknown[] }> };
  if (!JSON.stringify(answer.messages.at(-1)?.content).includes('pong')) throw new Error('unexpected answer');
}

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

interface Result {
  sdkUs: number;
  fetchUs: number;
  ratio: number;
  sdkCpuUs: number;
  fetchCpuUs: number;
  cpuRatio: number;
}

/** The medians (µs per loop) of `ROUNDS` interleaved rounds; warms both up first. */
export async function measureToolLoop(): Promise<Result> {
  await timeLoops(sdkLoop);
  await timeLoops(fetchLoop);
  const sdk: Array<{ wall: number; cpu: number }> = [];
  const raw: Array<{ wall: number; cpu: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      sdk.push(await timeLoops(sdkLoop));
      raw.push(await timeLoops(fetchLoop));
    } else {
      raw.push(await timeLoops(fetchLoop));
      sdk.push(await timeLoops(sdkLoop));
    }
  }
  const sdkUs = median(sdk.map((r) => r.wall));
  const fetchUs = median(raw.map((r) => r.wall));
  const sdkCpuUs = median(sdk.map((r) => r.cpu));
  const fetchCpuUs = median(raw.map((r) => r.cpu));
  return { sdkUs, fetchUs, ratio: sdkUs / fetchUs, sdkCpuUs, fetchCpuUs, cpuRatio: sdkCpuUs / fetchCpuUs };
}

const r = await measureToolLoop();
const line = (name: string, us: number, cpu: number) =>
  `  ${name}  ${us.toFixed(0)} µs per loop, ${(us / 5).toFixed(0)} per request (CPU ${cpu.toFixed(0)} µs per loop)`;
console.log(
  `tool loop over loopback (create, send, heartbeat, respond, resume; ${ROUNDS} interleaved rounds of ${LOOPS}, medians):\n` +
    `${line('runToolLoop', r.sdkUs, r.sdkCpuUs)}\n` +
    `${line('raw fetch  ', r.fetchUs, r.fetchCpuUs)}\n` +
    `  ratio        ${r.ratio.toFixed(2)}x raw fetch in time, ${r.cpuRatio.toFixed(2)}x in CPU (goal <= 1.15x)`,
);
await running.close();
