// In process: `server.fetch` creating sessions against a minimal Hono `app.fetch` doing the same
// JSON work (bearer check, read and parse the body, store a session, answer `201 {sessionId}`).
import { createReferenceServer } from '@parley/reference-server';
import { median } from './bench-utils.js';
import { minimalHonoApp } from './minimal-hono-app.js';

const TOKEN = 'parley-demo-token';
const ROUNDS = 7;

function createRequest(): Request {
  return new Request('http://bench.test/v1/sessions', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: '{}',
  });
}

async function opsPerSecond(fetch: (request: Request) => Promise<Response>, count: number): Promise<number> {
  // Requests are built before the clock starts: building them costs both sides the same.
  const requests = Array.from({ length: count }, createRequest);
  const start = performance.now();
  for (const request of requests) {
    const response = await fetch(request);
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    await response.text();
  }
  return count / ((performance.now() - start) / 1000);
}

/** Creates per second through both, alternating rounds; the medians and their ratio. */
export async function benchInProcess(count = 5000): Promise<{ server: number; hono: number; ratio: number }> {
  const { app: hono } = minimalHonoApp();
  const honoFetch = (request: Request) => Promise.resolve(hono.fetch(request));
  const runs = { server: [] as number[], hono: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh server per round: its session store starts empty like the Hono app's.
    const server = createReferenceServer();
    runs.hono.push(await opsPerSecond(honoFetch, count));
    runs.server.push(await opsPerSecond(server.fetch, count));
    await server.close();
  }
  // The first round warms both up; it is not counted.
  const server = median(runs.server.slice(1));
  const honoOps = median(runs.hono.slice(1));
  return { server, hono: honoOps, ratio: server / honoOps };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchInProcess(Number(process.env.BENCH_COUNT ?? 5000));
  console.log(result);
}
