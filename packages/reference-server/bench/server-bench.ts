// The reference server's bench: every figure is a ratio against a baseline taken in the same run,
// or a heap figure against the data it holds. Prints, never asserts.
// It measures the built package (dist/), as users run it; `pnpm bench` builds it first.
// Run: npx --yes pnpm@10 bench (from the repository root), or BENCH_ONLY=loopback,heap ... to pick parts.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mib, ratio, verdict } from './bench-utils.js';
import type { benchHeap } from './heap.js';
import { benchInProcess } from './in-process.js';
import { benchLoopback } from './loopback.js';
import { benchReplay } from './replay.js';
import { benchStreamWords } from './stream-words.js';

const only = process.env.BENCH_ONLY?.split(',');
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

console.log('reference server bench (ratios against baselines of the same run)');

if (runs('loopback')) {
  for (const r of await benchLoopback(
    Number(process.env.BENCH_SECONDS ?? 3),
    Number(process.env.BENCH_ROUNDS ?? 7),
  )) {
    const goal = r.scenario === 'create' ? 0.5 : 0.4;
    const name = r.scenario === 'create' ? 'create session        ' : 'create + buffered turn';
    console.log(
      `loopback HTTP, 16 connections, ${name}: ${r.server.toFixed(0)} vs bare node:http ${r.bare.toFixed(0)} req/s ` +
        `${verdict(r.ratio, `>= ${goal}`, r.ratio >= goal)} (rounds ${ratio(r.roundRatios.min)} to ${ratio(r.roundRatios.max)}), ` +
        `failed requests: ${r.failed}`,
    );
    console.log(
      `  for reference: a minimal Hono app on @hono/node-server ${r.hono.toFixed(0)} req/s ${ratio(r.hono / r.bare)} of bare; ` +
        `the reference server ${ratio(r.server / r.hono)} of it`,
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
