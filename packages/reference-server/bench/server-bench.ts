// The reference server's bench: every figure is a ratio against a baseline taken in the same run,
// or a heap figure against the data it holds. Prints, never asserts.
// It measures the built package (dist/), as users run it; `pnpm bench` builds it first.
// Run: npx --yes pnpm@10 bench (from the repository root), or BENCH_ONLY=cold-start,loopback,heap,pace ...
// to pick parts.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mib, ratio, verdict } from './bench-utils.js';
import { benchColdStart } from './cold-start.js';
import type { benchHeap } from './heap.js';
import { benchInProcess } from './in-process.js';
import { benchLoopback, type Scenario } from './loopback.js';
import { benchPace } from './pace.js';
import { benchProxyRequests } from './proxy.js';
import type { benchProxyStream } from './proxy-stream.js';
import { benchReplay } from './replay.js';
import type { ReplayScale } from './replay-scale.js';
import { benchStreamWords } from './stream-words.js';
import { type benchScopeHeap, benchTestScopes } from './test-scopes.js';

const only = process.env.BENCH_ONLY?.split(',');
const SCENARIO_NAMES: Record<Scenario, string> = {
  create: 'create session        ',
  'create-no-body': 'create, no body       ',
  turn: 'create + buffered turn',
};
const runs = (part: string) => only === undefined || only.includes(part);

function runHeapChild(): Promise<Awaited<ReturnType<typeof benchHeap>>> {
  const child = fork(fileURLToPath(new URL('./heap.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as Awaited<ReturnType<typeof benchHeap>>));
    child.once('exit', (code) => reject(new Error(`the heap bench exited (${code})`)));
  });
}

function runReplayScaleChild(): Promise<ReplayScale> {
  const child = fork(fileURLToPath(new URL('./replay-scale.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as ReplayScale));
    child.once('exit', (code) => reject(new Error(`the replay scale bench exited (${code})`)));
  });
}

function runProxyStreamChild(): Promise<Awaited<ReturnType<typeof benchProxyStream>>> {
  const child = fork(fileURLToPath(new URL('./proxy-stream.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as Awaited<ReturnType<typeof benchProxyStream>>));
    child.once('exit', (code) => reject(new Error(`the proxy stream bench exited (${code})`)));
  });
}

function runScopeHeapChild(): Promise<Awaited<ReturnType<typeof benchScopeHeap>>> {
  const child = fork(fileURLToPath(new URL('./test-scopes.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as Awaited<ReturnType<typeof benchScopeHeap>>));
    child.once('exit', (code) => reject(new Error(`the test scope heap bench exited (${code})`)));
  });
}

console.log('reference server bench (ratios against baselines of the same run)');

if (runs('cold-start')) {
  const r = await benchColdStart(Number(process.env.BENCH_COLD_ROUNDS ?? 9));
  console.log(
    `cold start, import + one buffered turn in a fresh process: ${r.serverTurn.toFixed(0)} ms vs importing msw/node ` +
      `${r.mswImport.toFixed(0)} ms ${verdict(r.ratio, '<= 1.3', r.ratio <= 1.3)}`,
  );
  console.log(
    `  their CPU time (steadier on a shared machine): ${r.serverTurnCpu.toFixed(0)} ms vs ${r.mswImportCpu.toFixed(0)} ms ` +
      ratio(r.cpuRatio),
  );
  console.log(
    `  the CLI, spawn to /healthz answering: ${r.cliHealthz.toFixed(0)} ms vs a bare node:http server ` +
      `${r.bareHealthz.toFixed(0)} ms ${ratio(r.cliHealthz / r.bareHealthz)}`,
  );
}

if (runs('loopback')) {
  for (const r of await benchLoopback(
    Number(process.env.BENCH_SECONDS ?? 3),
    Number(process.env.BENCH_ROUNDS ?? 7),
  )) {
    const goal = r.scenario === 'turn' ? 0.4 : 0.5;
    const name = SCENARIO_NAMES[r.scenario];
    console.log(
      `loopback HTTP, 16 connections, ${name}: ${r.server.toFixed(0)} vs bare node:http ${r.bare.toFixed(0)} req/s ` +
        `${verdict(r.ratio, `>= ${goal}`, r.ratio >= goal)} (rounds ${ratio(r.roundRatios.min)} to ${ratio(r.roundRatios.max)}), ` +
        `failed requests: ${r.failed}`,
    );
    console.log(
      `  for reference: a minimal Hono app on @hono/node-server ${r.hono.toFixed(0)} req/s ${ratio(r.hono / r.bare)} of bare; ` +
        `the reference server ${ratio(r.server / r.hono)} of it`,
    );
    const { cpuPerRequest: cpu } = r;
    console.log(
      `  server CPU per request (steadier on a shared machine): ${cpu.server.toFixed(0)} us vs bare ${cpu.bare.toFixed(0)} us, ` +
        `bare / server ${ratio(cpu.bare / cpu.server)}`,
    );
  }
}

if (runs('in-process')) {
  const r = await benchInProcess();
  console.log(
    `in process, create session: server.fetch ${r.server.toFixed(0)} vs minimal Hono app.fetch ${r.hono.toFixed(0)} ops/s ` +
      verdict(r.ratio, '>= 0.5', r.ratio >= 0.5),
  );
}

if (runs('replay')) {
  const r = await benchReplay();
  console.log(
    `in process, create + buffered turn: replaying a cassette ${r.replay.toFixed(0)} vs a scripted model ` +
      `${r.scripted.toFixed(0)} turns/s ${verdict(r.ratio, '>= 0.8', r.ratio >= 0.8)}`,
  );
}

if (runs('replay-scale')) {
  const r = await runReplayScaleChild();
  for (const match of ['order', 'sessionData'] as const) {
    const m = r[match];
    const linear = (x: number) => x <= 12;
    console.log(
      `replaying ${r.large / 1000}k turns vs ${r.small / 1000}k (${match}): time ${verdict(m.timeRatio, '<= 12, linear is 10', linear(m.timeRatio))}, ` +
        `heap kept ${verdict(m.heapRatio, '<= 12', linear(m.heapRatio))} (${m.smallMs.toFixed(0)} vs ${m.largeMs.toFixed(0)} ms, ${mib(m.largeKept)} at ${r.large / 1000}k)`,
    );
  }
}

if (runs('stream')) {
  const r = await benchStreamWords();
  console.log(
    `one streamed reply over HTTP: ${r.small.toFixed(1)} us/word at ${r.smallWords / 1000}k words, ` +
      `${r.large.toFixed(1)} us/word at ${r.largeWords / 1000}k: ${verdict(r.ratio, '<= 1.5', r.ratio <= 1.5)}`,
  );
}

if (runs('heap')) {
  const { perMessage, largeBodies, exports } = await runHeapChild();
  const perPayload = perMessage.heapPerMessage / perMessage.textPerMessage;
  console.log(
    `heap per stored message (${perMessage.messages} messages, journal included): ${perMessage.heapPerMessage.toFixed(0)} B ` +
      `for ${perMessage.textPerMessage.toFixed(0)} B of text (${perMessage.jsonPerMessage.toFixed(0)} B as JSON): ` +
      verdict(perPayload, '<= 2', perPayload <= 2),
  );
  console.log(
    `${largeBodies.sends} user messages of ${mib(largeBodies.bodyBytes)}: heap ${mib(largeBodies.heap)}, ` +
      `stored text ${mib(largeBodies.storedText)}, copies of a body beyond the stored messages ` +
      verdict(largeBodies.copiesBeyondStored, '<= 1', largeBodies.copiesBeyondStored <= 1),
  );
  console.log(
    `${exports.exports} exports of a ${mib(exports.sessionBytes)} session and a streamed reply: ` +
      `${mib(exports.retainedByExports)} retained by them all (${mib(exports.retainedByExports / exports.exports)} each); ` +
      `heap over its baseline after deleting the session: ${mib(exports.afterDelete)}`,
  );
}

if (runs('proxy')) {
  for (const r of await benchProxyRequests(
    Number(process.env.BENCH_SECONDS ?? 3),
    Number(process.env.BENCH_PROXY_ROUNDS ?? 3),
  )) {
    const us = (value: number) => `${value.toFixed(0)} us`;
    console.log(`checking proxy, one connection, create + buffered turn, ${r.upstream}:`);
    console.log(
      `  per request: direct ${us(r.direct.us)}, bare node:http hop ${us(r.bareHop.us)} (${ratio(r.bareHop.us / r.direct.us)}), ` +
        `checking proxy ${us(r.proxy.us)}: ${ratio(r.ratio)} of direct, ` +
        `${verdict(r.proxy.us / r.bareHop.us, '<= 1.2 of the bare hop', r.proxy.us / r.bareHop.us <= 1.2)}; ` +
        `failed requests: ${r.failed}`,
    );
    console.log(
      `  CPU per request: the checking proxy ${us(r.proxy.cpuUs)}, the bare hop ${us(r.bareHop.cpuUs)}, ` +
        `the upstream answering directly ${us(r.direct.cpuUs)}`,
    );
  }
}

if (runs('proxy-stream')) {
  const r = await runProxyStreamChild();
  console.log(
    `checking proxy, one streamed reply of ${mib(r.bodyBytes)} (${r.largeEvents / 1000}k events): heap grew ${mib(r.heapGrowth)} ` +
      `while it passed (${ratio(r.heapGrowth / r.bodyBytes)} of the body: ${r.heapGrowth < r.bodyBytes / 10 ? 'flat, no copy of the body' : 'NOT flat'}); ` +
      `${r.smallUsPerEvent.toFixed(1)} us/event at ${r.smallEvents / 1000}k events, ${r.largeUsPerEvent.toFixed(1)} us/event at ${r.largeEvents / 1000}k: ` +
      `${verdict(r.ratio, '<= 1.5 (linear)', r.ratio <= 1.5)}; violations found: ${r.violations}`,
  );
}

if (runs('test-scopes')) {
  const r = await benchTestScopes(Number(process.env.BENCH_SCOPE_TURNS ?? 2000));
  const [low = Number.NaN, high = Number.NaN] = [Math.min(...r.roundRatios), Math.max(...r.roundRatios)];
  console.log(
    `in process, create + buffered turn with x-parley-test-id (a new test every 20 turns): ${r.scoped.toFixed(0)} vs ` +
      `${r.unscoped.toFixed(0)} turns/s without ${verdict(r.ratio, '>= 0.9', r.ratio >= 0.9)} (rounds ${ratio(low)} to ${ratio(high)})`,
  );
  const h = await runScopeHeapChild();
  console.log(
    `heap per session with one buffered turn: ${(h.perSession / 1024).toFixed(1)} KiB (${h.sessions} sessions, journal off); ` +
      `per test scope with one session and its journal: ${(h.perScope / 1024).toFixed(1)} KiB (${h.scopes} scopes), ` +
      `${(h.afterReset / 1024).toFixed(2)} KiB left per scope after resetting each`,
  );
}

if (runs('pace')) {
  // Real clock: a short reply first (2 s), then the 400-word one the goal names (10 s).
  for (const words of [80, 400]) {
    const r = await benchPace(words, 40);
    const met = Math.abs(r.ratio - 1) <= 0.05;
    console.log(
      `streaming pace, ${r.words} words at ${r.wordsPerSecond} words/s over loopback HTTP: ${(r.measuredMs / 1000).toFixed(2)} s ` +
        `measured vs ${(r.expectedMs / 1000).toFixed(2)} s expected, measured/expected ${verdict(r.ratio, '1 +- 0.05', met)}`,
    );
  }
}
