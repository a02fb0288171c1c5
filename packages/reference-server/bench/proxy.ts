// The checking proxy's cost per request: the same requests to an upstream reference server
// directly, through a bare node:http forwarding proxy (the floor of any hop on this machine) and
// through the checking proxy (another reference server with `upstream`), one connection at a time,
// so a run's time over its requests is the time of one request. Each server is a child process;
// rounds alternate. Three upstreams: one that answers at once (the proxy's hop is then as long as
// the upstream's whole work: the worst case), one a network round trip away, and one whose model
// takes a few milliseconds per reply, as a fast real deployment does.
import autocannon from 'autocannon';
import { median } from './bench-utils.js';
import { startTarget, type Target } from './target.js';

const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };

interface Context {
  sessionId: string;
}

/** Create a session, then one buffered turn in it. */
const TURN: autocannon.Request[] = [
  {
    method: 'POST',
    path: '/v1/sessions',
    headers,
    body: '{}',
    onResponse: (_status, body, context) => {
      (context as Context).sessionId = (JSON.parse(body) as Context).sessionId;
    },
  },
  {
    method: 'POST',
    headers,
    setupRequest: (request, context) => ({
      ...request,
      path: `/v1/messages/${(context as Context).sessionId}`,
      body: JSON.stringify({ content: 'Hello there' }),
    }),
  },
];

async function load(url: string, seconds: number): Promise<{ us: number; total: number; failed: number }> {
  const result = await autocannon({ url, connections: 1, duration: seconds, requests: TURN });
  const total = result.requests.total;
  return {
    // One connection: the run's time over its requests is the time of one request.
    us: (result.duration * 1e6) / Math.max(1, total),
    total,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

/** CPU microseconds (user + system) a target has spent so far. */
function cpu(target: Target): Promise<number> {
  return new Promise((resolve) => {
    target.child.once('message', (usage) => {
      const { user, system } = usage as NodeJS.CpuUsage;
      resolve(user + system);
    });
    target.child.send('cpu');
  });
}

/** One way to the upstream: its time and CPU per request (medians of the rounds). */
export interface ProxyPath {
  /** Microseconds per request. */
  us: number;
  /** CPU microseconds per request of the process that answers the load generator. */
  cpuUs: number;
}

export interface ProxyRequestResult {
  upstream: string;
  /** Straight to the upstream. */
  direct: ProxyPath;
  /** Through a bare node:http forwarding proxy: the floor of any hop. */
  bareHop: ProxyPath;
  /** Through the checking proxy. */
  proxy: ProxyPath;
  /** proxy / direct: the goal's figure. */
  ratio: number;
  failed: number;
}

async function compare(
  name: string,
  script: unknown,
  seconds: number,
  rounds: number,
  latencyMs = 0,
): Promise<ProxyRequestResult> {
  const env = {
    BENCH_SCRIPT: JSON.stringify(script),
    ...(latencyMs > 0 ? { BENCH_LATENCY_MS: String(latencyMs) } : {}),
  };
  const upstream = await startTarget('reference', [], env);
  const children: Target[] = [upstream];
  try {
    const proxy = await startTarget('reference', [], {
      BENCH_SERVER_OPTIONS: JSON.stringify({ upstream: { url: upstream.url } }),
    });
    children.push(proxy);
    const hop = await startTarget('bare-hop', [], { BENCH_UPSTREAM: upstream.url });
    children.push(hop);
    const paths = { direct: upstream, bareHop: hop, proxy } as const;
    const samples = { direct: [] as ProxyPath[], bareHop: [] as ProxyPath[], proxy: [] as ProxyPath[] };
    for (const target of Object.values(paths)) await load(target.url, 1);
    let failed = 0;
    for (let round = 0; round < rounds; round++) {
      for (const key of ['direct', 'bareHop', 'proxy'] as const) {
        const target = paths[key];
        await upstream.reset();
        const before = await cpu(target);
        const run = await load(target.url, seconds);
        samples[key].push({ us: run.us, cpuUs: ((await cpu(target)) - before) / Math.max(1, run.total) });
        failed += run.failed;
      }
    }
    const med = (list: ProxyPath[]): ProxyPath => ({
      us: median(list.map((p) => p.us)),
      cpuUs: median(list.map((p) => p.cpuUs)),
    });
    const direct = med(samples.direct);
    const proxied = med(samples.proxy);
    return {
      upstream: name,
      direct,
      bareHop: med(samples.bareHop),
      proxy: proxied,
      ratio: proxied.us / direct.us,
      failed,
    };
  } finally {
    for (const child of children) child.child.disconnect();
  }
}

/**
 * Three upstreams: one answering at once (the worst case: the hop is as long as the upstream's
 * whole work), one answering each request after `networkMs` (a deployment in the same data centre:
 * a network round trip, stood in for by a timer in the upstream), and one whose model streams 10
 * words `delayMs` apart (a buffered turn of about 9 x `delayMs`, still faster than any real model).
 */
export async function benchProxyRequests(
  seconds = 3,
  rounds = 3,
  delayMs = 20,
  networkMs = 1,
): Promise<ProxyRequestResult[]> {
  const words = 'one two three four five six seven eight nine ten';
  const hi = { rules: [{ match: {}, reply: { text: 'Hi there' } }] };
  return [
    await compare('an upstream answering at once', hi, seconds, rounds),
    await compare(
      `an upstream answering after ${networkMs} ms (a network round trip in one data centre, simulated)`,
      hi,
      seconds,
      rounds,
      networkMs,
    ),
    await compare(
      `an upstream whose model streams 10 words ${delayMs} ms apart`,
      { rules: [{ match: {}, reply: { text: words, delayMs } }] },
      seconds,
      rounds,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchProxyRequests(Number(process.env.BENCH_SECONDS ?? 3), Number(process.env.BENCH_ROUNDS ?? 3)),
  );
}
