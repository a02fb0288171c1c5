// A tool loop survives its process: a worker child process (a real Node.js process running
// fixtures/crash-worker.ts) is killed with SIGKILL at each point of the loop, and a new child
// re-attaches with runToolLoop({ reattach: true }). The reference server runs in this process on
// a port, on a ManualClock: a dead worker's lease goes stale when the test moves the clock, so no
// test waits for a lease to run out. Every child is bounded by a timeout and killed in `finally`.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '@parley/reference-server';
import { type RunningServer, startServer } from '@parley/reference-server/node';
import { Parley } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { CrashWorkerArgs, CrashWorkerEvent, KillPoint } from './fixtures/crash-worker.js';

const LEASE_MS = 3_000;
/** How long one child may take to reach its kill point or finish (its start loads tsx and the SDK). */
const CHILD_TIMEOUT_MS = 30_000;
const ENTRY = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));

/** One worker child process and the events it printed. */
class Child {
  readonly events: CrashWorkerEvent[] = [];
  readonly #process: ChildProcess;
  readonly #exited: Promise<number | null>;
  #stderr = '';
  #wake: (() => void) | undefined;

  constructor(args: CrashWorkerArgs) {
    this.#process = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@parley/source', ENTRY, JSON.stringify(args)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#exited = new Promise((resolve) => this.#process.once('exit', (code) => resolve(code)));
    void this.#exited.then(() => this.#wake?.());
    this.#process.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    createInterface({ input: this.#process.stdout!, terminal: false }).on('line', (line) => {
      this.events.push(JSON.parse(line) as CrashWorkerEvent);
      this.#wake?.();
    });
  }

  /** Resolves with the first event that matches, or rejects when the child exits or times out first. */
  async waitFor<K extends CrashWorkerEvent['event']>(
    kind: K,
  ): Promise<Extract<CrashWorkerEvent, { event: K }>> {
    const deadline = Date.now() + CHILD_TIMEOUT_MS;
    for (;;) {
      const found = this.events.find((e): e is Extract<CrashWorkerEvent, { event: K }> => e.event === kind);
      if (found) return found;
      if (this.#process.exitCode !== null || this.#process.signalCode !== null) {
        throw new Error(`The worker ended before "${kind}": ${JSON.stringify(this.events)}\n${this.#stderr}`);
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`No "${kind}" from the worker within ${CHILD_TIMEOUT_MS} ms: ${this.#stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** SIGKILL: the process dies at once, wherever it is. */
  async kill(): Promise<void> {
    if (this.#process.exitCode === null && this.#process.signalCode === null) this.#process.kill('SIGKILL');
    await this.#exited;
  }
}

let clock: ManualClock;
let running: RunningServer;
let client: Parley;
const children: Child[] = [];

beforeEach(async () => {
  clock = new ManualClock(Date.now());
  running = await startServer({ port: 0, clock, heartbeatTimeoutMs: LEASE_MS });
  client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.kill()));
  await running.close();
});

function child(sessionId: string, mode: CrashWorkerArgs['mode'], killPoint: KillPoint): Child {
  const started = new Child({ baseUrl: running.url, sessionId, mode, killPoint, leaseMs: LEASE_MS });
  children.push(started);
  return started;
}

/** Kills a first worker at `killPoint`, then re-attaches from a second; returns both children's events. */
async function crashAndReattach(killPoint: KillPoint) {
  const { sessionId } = await client.sessions.create();
  const first = child(sessionId, 'first', killPoint);
  await first.waitFor('at-kill-point');
  await first.kill();
  const [use] = (await client.messages.export(sessionId)).flatMap((m) =>
    m.content.flatMap((b) => (b.type === 'tool_use' ? [b] : [])),
  );
  const requestId = use?.id ?? '';
  const call = await client.tools.get(sessionId, requestId);
  // What the dead worker left behind, as any worker reads it before the lease ran out.
  const left = { state: call.state, claimed: call.lastHeartbeatAt !== null };
  // A dead worker's lease runs out: move the server's clock past it.
  await clock.advance(LEASE_MS);
  const second = child(sessionId, 'reattach', killPoint);
  const result = await second.waitFor('result');
  const messages = await client.messages.export(sessionId);
  const userTexts = messages.filter((m) => m.role === 'user' && m.content.some((b) => b.type === 'text'));
  const runs = [...first.events, ...second.events].filter((e) => e.event === 'run');
  const sent = running.server.journal
    .entries({ method: 'POST', path: '/v1/messages/*' })
    .filter((entry) => JSON.stringify(entry.body ?? {}).includes('book_flight'));
  return { sessionId, requestId, left, first, second, result, userTexts, runs, sent };
}

const TIMEOUT = { timeout: 120_000 };

describe('a worker killed with SIGKILL, and a new process re-attaching with reattach: true', () => {
  test(
    'killed before its first beat: the call its send picked up is held until its lease lapses, then claimed and run once, as attempt 2',
    TIMEOUT,
    async () => {
      const run = await crashAndReattach('before-first-beat');
      // The dead worker's send picked the call up (lease extension): it reads PROCESSING, beaten at creation.
      expect(run.left).toEqual({ state: 'PROCESSING', claimed: true });
      expect(run.result).toMatchObject({ status: 'done', finalText: 'Your flight to Oslo is booked.' });
      expect(run.result).toMatchObject({ claimed: [run.requestId], heldElsewhere: [], completed: [] });
      // Its handler never ran, but the server counts the holder it lost: the claim is the second.
      expect(run.runs).toEqual([{ event: 'run', requestId: run.requestId, attempt: 2 }]);
      expect(run.userTexts).toHaveLength(1);
      expect(run.sent).toHaveLength(1);
    },
  );

  test(
    'killed mid-handler: the stale call runs again in the new process as attempt 2, with the same requestId as its idempotency key',
    TIMEOUT,
    async () => {
      const run = await crashAndReattach('mid-handler');
      expect(run.left).toEqual({ state: 'PROCESSING', claimed: true });
      expect(run.result).toMatchObject({ status: 'done', finalText: 'Your flight to Oslo is booked.' });
      expect(run.result).toMatchObject({ claimed: [run.requestId], heldElsewhere: [], completed: [] });
      // At least once: it was running when the process died, so it runs again, and says so.
      expect(run.runs).toEqual([
        { event: 'run', requestId: run.requestId, attempt: 1 },
        { event: 'run', requestId: run.requestId, attempt: 2 },
      ]);
      expect(run.userTexts).toHaveLength(1);
      expect(run.sent).toHaveLength(1);
    },
  );

  test(
    'killed after respond and before the resume: the completed call is not run again, and the turn is resumed',
    TIMEOUT,
    async () => {
      const run = await crashAndReattach('after-respond');
      expect(run.left).toEqual({ state: 'COMPLETE', claimed: true });
      expect(run.result).toMatchObject({ status: 'done', finalText: 'Your flight to Oslo is booked.' });
      expect(run.result).toMatchObject({ claimed: [], heldElsewhere: [], completed: [run.requestId] });
      expect(run.runs).toEqual([{ event: 'run', requestId: run.requestId, attempt: 1 }]);
      expect(run.userTexts).toHaveLength(1);
      expect(run.sent).toHaveLength(1);
    },
  );

  test(
    'killed while awaiting approval: the new process asks approve again, then runs the call once',
    TIMEOUT,
    async () => {
      const run = await crashAndReattach('awaiting-approval');
      expect(run.left).toEqual({ state: 'PROCESSING', claimed: true });
      expect(run.first.events.filter((e) => e.event === 'approve')).toHaveLength(1);
      expect(run.second.events.filter((e) => e.event === 'approve')).toEqual([
        { event: 'approve', requestId: run.requestId },
      ]);
      expect(run.result).toMatchObject({ status: 'done', finalText: 'Your flight to Oslo is booked.' });
      expect(run.result).toMatchObject({ claimed: [run.requestId], heldElsewhere: [], completed: [] });
      expect(run.runs).toEqual([{ event: 'run', requestId: run.requestId, attempt: 2 }]);
      expect(run.userTexts).toHaveLength(1);
      expect(run.sent).toHaveLength(1);
    },
  );
});
