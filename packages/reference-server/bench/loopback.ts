// Over loopback HTTP with 16 connections (autocannon): the reference server against a bare
// node:http server doing the same JSON work, each in a child process, alternating rounds; and, for
// reference, a minimal Hono app on @hono/node-server doing that work (what the framework and its
// adapter cost as they come).
import autocannon from 'autocannon';
import { median } from './bench-utils.js';
import { startTarget, type Target } from './target.js';

const TOKEN = 'parley-demo-token';
const CONNECTIONS = 16;

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** `create-no-body`: the same create with no body at all (no Content-Length), as curl sends it. */
export type Scenario = 'create' | 'create-no-body' | 'turn';

/** What autocannon keeps per connection between the requests of one sequence. */
interface Context {
  sessionId: string;
}

function requests(scenario: Scenario): autocannon.Request[] {
  if (scenario === 'create-no-body')
    return [{ method: 'POST', path: '/v1/sessions', headers: { authorization: headers.authorization } }];
  const create: autocannon.Request = {
    method: 'POST',
    path: '/v1/sessions',
    headers,
    body: '{}',
    onResponse: (_status, body, context) => {
      if (scenario === 'turn') (context as Context).sessionId = (JSON.parse(body) as Context).sessionId;
    },
  };
  if (scenario === 'create') return [create];
  return [
    create,
    {
      method: 'POST',
      headers,
      setupRequest: (request, context) => ({
        ...request,
        path: `/v1/messages/${(context as Context).sessionId}`,
        body: JSON.stringify({ content: 'Hello there, how are you today?' }),
      }),
    },
  ];
}

interface LoadResult {
  rps: number;
  failed: number;
  /** Requests answered in the run. */
  requests: number;
}

async function load(url: string, scenario: Scenario, seconds: number): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: requests(scenario),
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  return { rps: result.requests.average, failed, requests: result.requests.total };
}

/** The CPU time (user + system, microseconds) the target's process has used so far. */
function cpuOf(target: Target): Promise<number> {
  return new Promise((resolve) => {
    target.child.once('message', (usage) => {
      const { user, system } = usage as NodeJS.CpuUsage;
      resolve(user + system);
    });
    target.child.send('cpu');
  });
}

export interface LoopbackResult {
  scenario: Scenario;
  bare: number;
  /** The minimal Hono app on @hono/node-server. */
  hono: number;
  server: number;
  /** server / bare, of the medians */
  ratio: number;
  /** The lowest and highest server / bare of one round (the run-to-run noise). */
  roundRatios: { min: number; max: number };
  /**
   * Median CPU microseconds per request of the bare server and of the reference server: steadier
   * than requests per second on a machine that other work shares.
   */
  cpuPerRequest: { bare: number; server: number };
  failed: number;
}

/** Each scenario: `rounds` alternating runs of `seconds` against the three servers; medians. */
export async function benchLoopback(
  seconds = 3,
  rounds = 7,
  scenarios: readonly Scenario[] = ['create', 'create-no-body', 'turn'],
): Promise<LoopbackResult[]> {
  const bare = await startTarget('bare');
  const hono = await startTarget('hono');
  const reference = await startTarget('reference');
  try {
    const results: LoopbackResult[] = [];
    for (const scenario of scenarios) {
      // Warm-up (the JIT), not counted.
      await load(bare.url, scenario, 2);
      await load(hono.url, scenario, 2);
      await load(reference.url, scenario, 2);
      const runs = { bare: [] as number[], hono: [] as number[], server: [] as number[] };
      const cpu = { bare: [] as number[], hono: [] as number[], server: [] as number[] };
      let failed = 0;
      for (let round = 0; round < rounds; round++) {
        for (const [name, target] of [
          ['bare', bare],
          ['hono', hono],
          ['server', reference],
        ] as const) {
          await target.reset();
          const before = await cpuOf(target);
          const result = await load(target.url, scenario, seconds);
          cpu[name].push(((await cpuOf(target)) - before) / result.requests);
          runs[name].push(result.rps);
          if (name === 'server') failed += result.failed;
        }
      }
      const b = median(runs.bare);
      const s = median(runs.server);
      const perRound = runs.server.map((rps, i) => rps / (runs.bare[i] as number));
      results.push({
        scenario,
        bare: b,
        hono: median(runs.hono),
        server: s,
        ratio: s / b,
        roundRatios: { min: Math.min(...perRound), max: Math.max(...perRound) },
        cpuPerRequest: { bare: median(cpu.bare), server: median(cpu.server) },
        failed,
      });
    }
    return results;
  } finally {
    bare.child.disconnect();
    hono.child.disconnect();
    reference.child.disconnect();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchLoopback(Number(process.env.BENCH_SECONDS ?? 3), Number(process.env.BENCH_ROUNDS ?? 7)),
  );
}
