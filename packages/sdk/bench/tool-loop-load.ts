// Load bench: many tool loops at once against one reference server (in a child process, so the CPU
// figures are the client's alone), each with a tool that takes TOOL_MS while its call is kept alive
// by heartbeats. For each lease (the server's heartbeatTimeoutMs) it runs the same loops four ways,
// each against a fresh server (so each way opens its own connections, none inherits another's):
// the SDK (`sessions.create` + `runToolLoop`, heartbeats automatic), plain ky, plain ky with an
// abort signal (one per loop, given to each of its requests, as a loop that can be stopped needs;
// the SDK's loop hands its run's signal to every request), and raw `fetch` (the hand-written ones
// beating every third of the lease, no per-beat deadline). It counts the beats that failed while
// the lease ran (an SDK beat's `onHeartbeatError`, a hand-written beat's rejection) and the calls
// lost, and prints the client's CPU time per loop, the loops' median wall time and the connections
// the client opened per loop (an aborted request costs its connection), and from the server's
// journal how many calls' leases lapsed before their response (lease-lapses.ts: the server went a
// lease without a beat, so the call read PENDING). Prints, never asserts: CI
// may skip it (it takes a minute or two on two cores).
// Run: npx --yes pnpm@10 --filter @parley/sdk bench:load (after `pnpm build`: the SDK and the
// server run from their built files, as users run them). BENCH_LOAD_LOOPS, BENCH_LOAD_LEASES
// (comma-separated ms) and BENCH_LOAD_TOOL_MS change the size; BENCH_LOAD_ONLY=sdk|ky|kySignal|raw
// (comma-separated) runs those ways alone (`sdk,ky` for the ratio that counts; `sdk` under
// `node --cpu-prof`, to read where the SDK's CPU time goes);
// BENCH_LOAD_ERRORS=n prints the n most frequent failure messages of each way (default 3).
import { type ChildProcess, fork } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { defineTool, jsonSchema, Parley } from '@parley/sdk';
import ky from 'ky';
import type { LeaseLapses } from './lease-lapses.js';

const LOOPS = Number(process.env.BENCH_LOAD_LOOPS ?? 1_000);
const LEASES = (process.env.BENCH_LOAD_LEASES ?? '1000,3000').split(',').map(Number);
const TOOL_MS = Number(process.env.BENCH_LOAD_TOOL_MS ?? 1_500);
const ONLY = process.env.BENCH_LOAD_ONLY?.split(',');
const TOKEN = 'parley-demo-token';
const CONTENT = '/tool work {"n":1}\n/then done';

// The connections the client's fetch opened (undici reports each one on this channel).
let connections = 0;
diagnostics.subscribe('undici:client:connected', () => connections++);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const work = defineTool({
  name: 'work',
  description: 'Works for a while',
  input: jsonSchema<{ n: number }>({
    type: 'object',
    properties: { n: { type: 'number' } },
    required: ['n'],
  }),
  run: async () => {
    await sleep(TOOL_MS);
    return { done: true };
  },
});

interface Tally {
  beats: number;
  failedBeats: number;
  /** SDK beats given up on their deadline (the lease + 1 s from their send; counted in failedBeats too). */
  atLeaseEnd: number;
  lost: number;
  failedLoops: number;
  /** Each loop's wall time, ms. */
  walls: number[];
  /** How many times each failure message was seen (beats and loops). */
  errors: Map<string, number>;
}

const newTally = (): Tally => ({
  beats: 0,
  failedBeats: 0,
  atLeaseEnd: 0,
  lost: 0,
  failedLoops: 0,
  walls: [],
  errors: new Map(),
});

function noteError(tally: Tally, what: string, error: unknown): void {
  const message =
    `${what}: ${error instanceof Error ? `${error.name} ${error.message}` : String(error)}`.slice(0, 160);
  tally.errors.set(message, (tally.errors.get(message) ?? 0) + 1);
}

async function startServerProcess(leaseMs: number): Promise<{ child: ChildProcess; url: string }> {
  // The child inherits this process's flags (tsx's loader), so it runs the TypeScript file as is.
  const child = fork(new URL('./reference-server-process.ts', import.meta.url), {
    env: { ...process.env, BENCH_LEASE_MS: String(leaseMs) },
  });
  const [started] = (await once(child, 'message')) as [{ url: string }];
  return { child, url: started.url };
}

function sdkLoop(base: string, tally: Tally): () => Promise<void> {
  const client = new Parley({ baseUrl: base, token: TOKEN, logLevel: 'off' });
  return async () => {
    const { sessionId } = await client.sessions.create({ tools: [work] });
    const result = await client.runToolLoop({
      sessionId,
      content: CONTENT,
      onHeartbeat: () => tally.beats++,
      onHeartbeatError: (error) => {
        tally.beats++;
        tally.failedBeats++;
        // The SDK keeps a slow beat until the lease + 1 s from its send: a timeout is a beat the lease outran.
        if (error instanceof Error && error.name === 'APITimeoutError') tally.atLeaseEnd++;
        noteError(tally, 'beat', error);
      },
    });
    tally.lost += result.steps.flatMap((s) => s.toolResults).filter((r) => r.status !== 'COMPLETE').length;
    if (result.finalText !== 'done') throw new Error(`unexpected answer ${result.finalText}`);
  };
}

type Post = (path: string, body: unknown) => Promise<unknown>;

/** The loop written by hand: create, send, beat every third of the lease while working, respond, resume. */
function handLoop(makePost: () => Post, leaseMs: number, tally: Tally): () => Promise<void> {
  const intervalMs = Math.max(250, Math.min(5_000, leaseMs / 3));
  return async () => {
    const post = makePost();
    const { sessionId } = (await post('v1/sessions', {
      customizations: { extensions: { tools: { work: work.definition } } },
    })) as { sessionId: string };
    const reply = (await post(`v1/messages/${sessionId}`, { content: CONTENT })) as {
      pendingTools: Array<{ requestId: string }>;
    };
    const requestId = reply.pendingTools[0]?.requestId ?? '';
    const beatPath = `v1/tools/request/${sessionId}/${requestId}/heartbeat`;
    let working = true;
    const beating = (async () => {
      while (working) {
        tally.beats++;
        await post(beatPath, { state: 'PROCESSING', heartbeat: Date.now() }).catch((error: unknown) => {
          tally.failedBeats++;
          noteError(tally, 'beat', error);
        });
        if (working) await sleep(intervalMs);
      }
    })();
    await sleep(TOOL_MS);
    working = false;
    await beating;
    await post(`v1/tools/response/${sessionId}/${requestId}`, {
      response: { done: true, state: 'COMPLETE' },
    });
    const answer = (await post(`v1/messages/${sessionId}`, {})) as {
      messages: Array<{ content: unknown[] }>;
    };
    if (!JSON.stringify(answer.messages.at(-1)?.content).includes('done'))
      throw new Error('unexpected answer');
  };
}

function fetchPost(base: string): () => Post {
  const headers = {
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const post: Post = async (path, body) => {
    const response = await fetch(`${base}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${response.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  return () => post;
}

/** ky's defaults; with `abortable`, each loop's requests carry that loop's abort signal. */
function kyPost(base: string, abortable = false): () => Post {
  const api = ky.create({ prefixUrl: base, headers: { authorization: `Bearer ${TOKEN}` } });
  const post: Post = (path, body) => api.post(path, { json: body }).json();
  if (!abortable) return () => post;
  return () => {
    const { signal } = new AbortController();
    return (path, body) => api.post(path, { json: body, signal }).json();
  };
}

/** LOOPS loops at once; the client's CPU time per loop (ms) and the tally. */
async function runAll(loop: () => Promise<void>, tally: Tally): Promise<Omit<Result, 'lapses'>> {
  const opened = connections;
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: LOOPS }, async () => {
      const started = performance.now();
      try {
        await loop();
      } catch (error) {
        tally.failedLoops++;
        noteError(tally, 'loop', error);
      }
      tally.walls.push(performance.now() - started);
    }),
  );
  const used = process.cpuUsage(cpu);
  lag.disable();
  return {
    lagMs: { p50: lag.percentile(50) / 1e6, p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
    cpuMs: (used.user + used.system) / 1000 / LOOPS,
    connections: (connections - opened) / LOOPS,
    tally,
  };
}

interface Result {
  cpuMs: number;
  /** The event loop's delay while the loops ran (how late a timer fired), ms. */
  lagMs: { p50: number; p99: number; max: number };
  connections: number;
  tally: Tally;
  lapses: LeaseLapses;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const ways = {
  sdk: { label: 'runToolLoop', make: (url: string, _leaseMs: number, t: Tally) => sdkLoop(url, t) },
  ky: {
    label: 'plain ky',
    make: (url: string, leaseMs: number, t: Tally) => handLoop(kyPost(url), leaseMs, t),
  },
  kySignal: {
    label: 'ky + signal',
    make: (url: string, leaseMs: number, t: Tally) => handLoop(kyPost(url, true), leaseMs, t),
  },
  raw: {
    label: 'raw fetch',
    make: (url: string, leaseMs: number, t: Tally) => handLoop(fetchPost(url), leaseMs, t),
  },
};
type Way = keyof typeof ways;

/**
 * One way's run on a server of its own: every way starts with no connection open (a way run after
 * another would reuse the connections the first one paid for), warmed up by one loop (JIT), outside
 * the timing. The server is gone, and its connections closed on this side, when it returns.
 */
async function measureWay(way: Way, leaseMs: number): Promise<Result> {
  const { child, url } = await startServerProcess(leaseMs);
  await ways[way].make(url, leaseMs, newTally())();
  child.send('reset');
  await once(child, 'message');
  const tally = newTally();
  const result = await runAll(ways[way].make(url, leaseMs, tally), tally);
  // The SDK's send carries a lease token: on the reference server it picks the call up.
  child.send({ lapses: { leasedSend: way === 'sdk' } });
  const [{ lapses }] = (await once(child, 'message')) as [{ lapses: LeaseLapses }];
  const exited = once(child, 'exit');
  child.disconnect();
  await exited;
  await sleep(200);
  return { ...result, lapses };
}

// Before any timed run, every way runs BENCH_LOAD_WARM loops (300) on a server of its own, untimed:
// the ways share ky and undici, and without it the first way timed would pay for the JIT work the
// later ones reuse (timed first, the SDK's ratio read up to 0.15 higher than timed second).
const WARM = Number(process.env.BENCH_LOAD_WARM ?? 300);
for (const way of Object.keys(ways) as Way[]) {
  if (ONLY !== undefined && !ONLY.includes(way)) continue;
  const leaseMs = LEASES[0] ?? 1_000;
  const { child, url } = await startServerProcess(leaseMs);
  const loop = ways[way].make(url, leaseMs, newTally());
  await Promise.all(Array.from({ length: WARM }, () => loop().catch(() => undefined)));
  const exited = once(child, 'exit');
  child.disconnect();
  await exited;
}

const lines: string[] = [];
for (const leaseMs of LEASES) {
  const results = new Map<Way, Result>();
  for (const name of Object.keys(ways) as Way[]) {
    if (ONLY === undefined || ONLY.includes(name)) results.set(name, await measureWay(name, leaseMs));
  }
  lines.push(`lease ${leaseMs} ms, ${LOOPS} loops at once, tools of ${TOOL_MS} ms:`);
  for (const [name, { cpuMs, lagMs, connections: opened, tally, lapses }] of results) {
    lines.push(
      `  ${ways[name].label.padEnd(12)} CPU ${cpuMs.toFixed(2)} ms per loop, wall median ${(median(tally.walls) / 1000).toFixed(2)} s, ` +
        `event loop delay p50/p99/max ${lagMs.p50.toFixed(0)}/${lagMs.p99.toFixed(0)}/${lagMs.max.toFixed(0)} ms, ` +
        `${opened.toFixed(2)} connections per loop; ` +
        `beats ${tally.beats}, failed ${tally.failedBeats}; calls lost ${tally.lost}; loops failed ${tally.failedLoops}; ` +
        `leases lapsed ${lapses.lapsed} of ${lapses.calls} (PENDING ${(lapses.pendingMs / 1000).toFixed(1)} s in all)`,
    );
    for (const [message, count] of [...tally.errors]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.BENCH_LOAD_ERRORS ?? 3))) {
      lines.push(`      ${count} x ${message}`);
    }
  }
  const sdk = results.get('sdk')?.cpuMs ?? Number.NaN;
  const plain = results.get('ky')?.cpuMs ?? Number.NaN;
  const raw = results.get('raw')?.cpuMs ?? Number.NaN;
  const withSignal = results.get('kySignal')?.cpuMs ?? Number.NaN;
  const sdkTally = results.get('sdk')?.tally;
  const failed = sdkTally ? sdkTally.failedBeats - sdkTally.atLeaseEnd : Number.NaN;
  lines.push(
    `  runToolLoop / plain ky: x${(sdk / plain).toFixed(2)} (goal <= 1.3: ${sdk / plain <= 1.3 ? 'met' : 'NOT met'}); ` +
      `/ ky + signal: x${(sdk / withSignal).toFixed(2)}; / raw fetch: x${(sdk / raw).toFixed(2)}; SDK beats failed while the lease ran: ${failed} (goal 0: ${failed === 0 ? 'met' : 'NOT met'}), ` +
      `given up on their deadline: ${sdkTally?.atLeaseEnd ?? Number.NaN}`,
  );
}
console.log(lines.join('\n'));
