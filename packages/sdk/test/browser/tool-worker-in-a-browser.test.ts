import { startServer } from '@parley/reference-server';
import { describe, expect } from 'vitest';
import { bundleForBrowser, itWithChromium, launchChromium, servePage } from '../helpers/browser.js';

// The SDK's minimum beat interval is 250 ms, three beats per lease: 750 ms is the shortest lease.
const LEASE_MS = 750;

// The page's bundle: the SDK, its worker entry (resolved for the browser: no `node` condition)
// and zod for the tool's schema.
const PAGE_ENTRY = `
export { Parley, defineTool, toolsToExtensions, APIUserAbortError } from '@parley/sdk';
export { runTool } from '@parley/sdk/tools';
export { workerHandler } from '@parley/sdk/worker';
export { z } from 'zod';
`;

// The worker's bundle. workerData is an Int32Array over shared memory: [0] release, [1] started.
const WORKER_ENTRY = `
import { serveToolHandler } from '@parley/sdk/worker';
serveToolHandler(({ mode }, { signal, workerData: flags }) => {
  if (mode === 'throw') throw new Error('No data for Atlantis');
  if (mode === 'malformed') {
    // Breaks the worker protocol on its own port, and never returns.
    self.postMessage({ protocol: 'parley.tool-worker.1', kind: 'error', error: null });
    return new Promise(() => {});
  }
  Atomics.store(flags, 1, 1);
  let rounds = 0;
  let x = 0;
  const done = mode === 'until-aborted' ? () => signal.aborted : () => Atomics.load(flags, 0) === 1;
  while (!done()) {
    for (let i = 0; i < 10000; i++) x = (x * 31 + i) % 1000003;
    rounds++;
  }
  if (signal.aborted) throw signal.reason;
  return { rounds: x >= 0 ? rounds : -1 };
});
`;

/** Cross-origin isolation, so that SharedArrayBuffer exists in the page and its workers. */
const ISOLATION = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

describe('tool workers in a browser', () => {
  itWithChromium(
    'a CPU-bound handler in a Web Worker keeps its lease, a thrown error is a tool error, an abort reaches it, a malformed message is a tool error',
    async () => {
      const [page, worker] = await Promise.all([
        bundleForBrowser({ contents: PAGE_ENTRY }),
        bundleForBrowser({ contents: WORKER_ENTRY }),
      ]);
      const api = await startServer({ port: 0, heartbeatTimeoutMs: LEASE_MS });
      const app = await servePage({ '/sdk.js': page, '/tool-worker.js': worker }, ISOLATION);
      const chromium = await launchChromium();
      const browser = chromium.context;
      try {
        const tab = browser.pages()[0] ?? (await browser.newPage());
        await tab.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code, the page must not see that.
        const script = `(async () => {
          const { Parley, defineTool, runTool, toolsToExtensions, APIUserAbortError, workerHandler, z } =
            await import(${JSON.stringify(`${app.url}/sdk.js`)});
          const client = new Parley({ baseUrl: ${JSON.stringify(api.url)}, token: 'parley-demo-token' });
          const exits = [];
          const exited = (n) => new Promise((resolve) => {
            const check = () => (exits.length >= n ? resolve(exits[n - 1]) : setTimeout(check, 10));
            check();
          });
          async function call(mode, flags, { signal, afterBeat } = {}) {
            const tool = defineTool({
              name: 'crunch',
              description: 'CPU-bound work',
              input: z.object({ mode: z.string() }),
              run: workerHandler(${JSON.stringify(`${app.url}/tool-worker.js`)}, {
                workerData: flags, abortGraceMs: 60000, onExit: (e) => exits.push(e),
              }),
            });
            const { sessionId } = await client.sessions.create({
              customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([tool]) } },
            });
            const reply = await client.messages.send(sessionId, { content: '/tool crunch {"mode":"' + mode + '"}' });
            const pending = reply.pendingTools[0];
            const result = await runTool(client, {
              sessionId, pending, tool, heartbeatTimeoutMs: reply.heartbeatTimeoutMs, signal, random: () => 0,
              onHeartbeat: () => afterBeat?.(sessionId, pending.requestId),
            }).catch((e) => e);
            const call = await client.tools.get(sessionId, pending.requestId);
            return { result, call };
          }

          // 1. Blocks its thread until the page counted 9 beats (3 lease lengths). Meanwhile a
          //    second reader, as another worker looking for claimable calls would, reads the call
          //    every 100 ms: it must never find it PENDING.
          const flags = new Int32Array(new SharedArrayBuffer(8));
          const states = [];
          let beatsWhileBlocked = 0;
          let reader;
          const blocked = await call('until-released', flags, {
            afterBeat: (sessionId, requestId) => {
              if (Atomics.load(flags, 1) !== 1) return;
              reader ??= setInterval(() => {
                // A read still on its way at the release may see the result: keep those before it.
                client.tools.get(sessionId, requestId).then((c) => {
                  if (Atomics.load(flags, 0) !== 1) states.push(c.state);
                });
              }, 100);
              if (++beatsWhileBlocked === 9) {
                clearInterval(reader);
                Atomics.store(flags, 0, 1);
              }
            },
          });

          // 2. A thrown error.
          const thrown = await call('throw', new Int32Array(new SharedArrayBuffer(8)));

          // 3. An abort after two beats; the handler never awaits, it reads signal.aborted.
          const abortFlags = new Int32Array(new SharedArrayBuffer(8));
          const controller = new AbortController();
          let abortBeats = 0;
          const aborted = await call('until-aborted', abortFlags, {
            signal: controller.signal,
            afterBeat: () => {
              if (Atomics.load(abortFlags, 1) === 1 && ++abortBeats === 2) controller.abort(new Error('user left'));
            },
          });
          const abortExit = await exited(3);

          // 4. A malformed message: the call is ERROR at once and the worker is terminated.
          const malformed = await call('malformed', new Int32Array(new SharedArrayBuffer(8)));
          const malformedExit = await exited(4);
          return {
            isolated: crossOriginIsolated,
            blocked: { status: blocked.result.status, state: blocked.call.state, beatsWhileBlocked, states },
            thrown: { status: thrown.result.status, error: thrown.result.error, state: thrown.call.state },
            aborted: { userAbort: aborted.result instanceof APIUserAbortError, settledAt: aborted.call.settledAt, exit: abortExit },
            malformed: { status: malformed.result.status, error: malformed.result.error, state: malformed.call.state, exit: malformedExit },
            exits: exits.map((e) => e.reason),
          };
        })()`;
        const result = (await tab.evaluate(script)) as {
          isolated: boolean;
          blocked: { status: string; state: string; beatsWhileBlocked: number; states: string[] };
          thrown: { status: string; error: string; state: string };
          aborted: { userAbort: boolean; settledAt: number | null; exit: unknown };
          malformed: { status: string; error: string; state: string; exit: unknown };
          exits: string[];
        };
        expect(result.isolated).toBe(true);
        expect(result.blocked).toMatchObject({ status: 'COMPLETE', state: 'COMPLETE', beatsWhileBlocked: 9 });
        // 8 intervals of 250 ms read every 100 ms: about 20 reads, none of them PENDING.
        expect(result.blocked.states.length).toBeGreaterThanOrEqual(10);
        expect(new Set(result.blocked.states)).toEqual(new Set(['PROCESSING']));
        expect(result.thrown).toEqual({ status: 'ERROR', error: 'No data for Atlantis', state: 'ERROR' });
        expect(result.aborted).toMatchObject({ userAbort: true, settledAt: null });
        // The handler saw its signal abort through shared memory and stopped before the grace ran out.
        expect(result.aborted.exit).toMatchObject({ reason: 'aborted', terminated: false });
        const malformed =
          'Tool "crunch": its worker sent a malformed message (an "error" message: "error" is null, not an object); the worker was stopped';
        expect(result.malformed).toMatchObject({ status: 'ERROR', error: malformed, state: 'ERROR' });
        expect(result.malformed.exit).toMatchObject({ reason: 'failed', terminated: true });
        expect(result.exits).toEqual(['done', 'done', 'aborted', 'failed']);
      } finally {
        await chromium.close();
        await api.close();
        await app.close();
      }
    },
  );
});
