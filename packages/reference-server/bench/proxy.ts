// The checking proxy's cost per request: the same requests to an upstream reference server
// directly and through a proxy (another reference server with `upstream`), one connection at a
// time, so requests per second is one over the time of a request. Each server is a child process;
// rounds alternate. Two upstreams: one that answers at once (the proxy's hop is then as long as
// the upstream's whole work: the worst case), and one whose model takes a few milliseconds per
// reply, as a fast real deployment does.
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

async function load(url: string, seconds: number): Promise<{ rps: number; total: number; failed: number }> {
  const result = await autocannon({ url, connections: 1, duration: seconds, requests: TURN });
  return {
    rps: result.requests.average,
    total: result.requests.total,
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

export interface ProxyRequestResult {
  upstream: string;
  /** Microseconds per request, direct and through the proxy (medians of the rounds). */
  directUs: number;
  proxiedUs: number;
  /** proxied / direct */
  ratio: number;
  /** CPU microseconds per request: the upstream's when asked directly, the proxy's own when it forwards. */
  upstreamCpuUs: number;
  proxyCpuUs: number;
  failed: number;
}

async function compare(
  name: string,
  script: unknown,
  seconds: number,
  rounds: number,
): Promise<ProxyRequestResult> {
  const env = { BENCH_SCRIPT: JSON.stringify(script) };
  const upstream = await startTarget('reference', [], env);
  let proxy: Target | undefined;
  try {
    proxy = await startTarget('reference', [], {
      BENCH_SERVER_OPTIONS: JSON.stringify({ upstream: { url: upstream.url } }),
    });
    await load(upstream.url, 1);
    await load(proxy.url, 1);
    const direct: number[] = [];
    const proxied: number[] = [];
    const upstreamCpu: number[] = [];
    const proxyCpu: number[] = [];
    let failed = 0;
    for (let round = 0; round < rounds; round++) {
      await upstream.reset();
      const upstreamBefore = await cpu(upstream);
      const d = await load(upstream.url, seconds);
      upstreamCpu.push(((await cpu(upstream)) - upstreamBefore) / d.total);
      await upstream.reset();
      await proxy.reset();
      const proxyBefore = await cpu(proxy);
      const p = await load(proxy.url, seconds);
      proxyCpu.push(((await cpu(proxy)) - proxyBefore) / p.total);
      direct.push(1e6 / d.rps);
      proxied.push(1e6 / p.rps);
      failed += d.failed + p.failed;
    }
    const directUs = median(direct);
    const proxiedUs = median(proxied);
    return {
      upstream: name,
      directUs,
      proxiedUs,
      ratio: proxiedUs / directUs,
      upstreamCpuUs: median(upstreamCpu),
      proxyCpuUs: median(proxyCpu),
      failed,
    };
  } finally {
    proxy?.child.disconnect();
    upstream.child.disconnect();
  }
}

/**
 * Both upstreams: one answering at once, and one whose model streams 10 words `delayMs` apart (a
 * buffered turn of about 9 x `delayMs`, still faster than any real model).
 */
export async function benchProxyRequests(
  seconds = 3,
  rounds = 3,
  delayMs = 20,
): Promise<ProxyRequestResult[]> {
  const words = 'one two three four five six seven eight nine ten';
  return [
    await compare(
      'an upstream answering at once',
      { rules: [{ match: {}, reply: { text: 'Hi there' } }] },
      seconds,
      rounds,
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
