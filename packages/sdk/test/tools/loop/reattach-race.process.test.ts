// One owner per tool call, with real processes: several worker processes (fixtures/race-worker.ts)
// re-attach to the same crashed turn at the same moment, over HTTP to a reference server on a
// port, and each call must run in exactly one of them; a live loop in this process keeps the calls
// it queued. The server runs on a ManualClock, so no lease lapses by itself: a double run can only
// come from two processes both believing they own a call. The worker processes are started once
// and serve every trial (a trial costs a few requests, not a process start).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '@parley/reference-server';
import { type RunningServer, startServer } from '@parley/reference-server/node';
import { defineTool, Parley } from '@parley/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { RaceWorkerEvent } from './fixtures/race-worker.js';

const LEASE_MS = 750;
const WORKERS = 8;
/** Trials per race; `PARLEY_RACE_TRIALS=200` runs the issue's count. */
const TRIALS = Number(process.env.PARLEY_RACE_TRIALS ?? 4);
const CALLS = ['a', 'b', 'c', 'd'];
const ENTRY = fileURLToPath(new URL('./fixtures/race-worker.ts', import.meta.url));
const TIMEOUT_MS = 60_000;

/** One worker process and the events it printed. */
class Worker {
  readonly events: RaceWorkerEvent[] = [];
  readonly #process: ChildProcess;
  #stderr = '';
  #wake: (() => void) | undefined;

  constructor(baseUrl: string, worker: number) {
    this.#process = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=@parley/source',
        ENTRY,
        JSON.stringify({ baseUrl, leaseMs: LEASE_MS, worker }),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.#process.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    this.#process.once('exit', () => this.#wake?.());
    createInterface({ input: this.#process.stdout!, terminal: false }).on('line', (line) => {
      this.events.push(JSON.parse(line) as RaceWorkerEvent);
      this.#wake?.();
    });
  }

  send(sessionId: string): void {
    this.#process.stdin?.write(`${sessionId}\n`);
  }

  /** Resolves with the first event `match` accepts; rejects when the process ends or time runs out. */
  async waitFor(match: (event: RaceWorkerEvent) => boolean): Promise<RaceWorkerEvent> {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (this.#process.exitCode !== null || this.#process.signalCode !== null) {
        throw new Error(`A race worker ended: ${this.#stderr}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`A race worker did not answer within ${TIMEOUT_MS} ms: ${this.#stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async kill(): Promise<void> {
    if (this.#process.exitCode !== null || this.#process.signalCode !== null) return;
    const exited = new Promise((resolve) => this.#process.once('exit', resolve));
    this.#process.kill('SIGKILL');
    await exited;
  }
}

let running: RunningServer;
let client: Parley;
const workers: Worker[] = [];

beforeAll(async () => {
  running = await startServer({ port: 0, clock: new ManualClock(Date.now()), heartbeatTimeoutMs: LEASE_MS });
  client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
  for (let i = 0; i < WORKERS; i++) workers.push(new Worker(running.url, i));
  await Promise.all(workers.map((w) => w.waitFor((e) => e.event === 'ready')));
}, TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((w) => w.kill()));
  await running?.close();
});

/** A crashed turn: a reply asked for four calls, and the worker that sent it died before any beat. */
async function crashedTurn(): Promise<{ sessionId: string; requestIds: string[] }> {
  const { sessionId } = await client.sessions.create();
  const content = `${CALLS.map((to) => `/tool book {"to":"${to}"}`).join('\n')}\n/then Done.`;
  const reply = await client.messages.send(sessionId, { content });
  return { sessionId, requestIds: reply.pendingTools.map((p) => p.requestId) };
}

/** Hands one crashed turn to `racers` at once; returns every run and result. */
async function race(racers: readonly Worker[]) {
  const { sessionId, requestIds } = await crashedTurn();
  for (const w of racers) w.send(sessionId);
  const ends = await Promise.all(
    racers.map((w) =>
      w.waitFor((e) => e.event !== 'ready' && e.event !== 'run' && e.sessionId === sessionId),
    ),
  );
  const runs = racers.flatMap((w) =>
    w.events.filter(
      (e): e is Extract<RaceWorkerEvent, { event: 'run' }> => e.event === 'run' && e.sessionId === sessionId,
    ),
  );
  const answers = (await client.messages.export(sessionId)).filter(
    (m) => m.role === 'assistant' && m.content.some((b) => b.type === 'text' && b.text === 'Done.'),
  );
  return { requestIds, ends, runs, answers };
}

describe('processes re-attaching to one crashed turn at once (lease extension)', () => {
  for (const count of [2, WORKERS]) {
    test(`of ${count} processes each call runs exactly once, as attempt 1, and one of them resumes the turn (${TRIALS} trials)`, {
      timeout: TIMEOUT_MS * 4,
    }, async () => {
      let doubleRuns = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        const { requestIds, ends, runs, answers } = await race(workers.slice(0, count));
        expect(ends.filter((e) => e.event === 'failed')).toEqual([]);
        const perCall = requestIds.map((id) => runs.filter((r) => r.requestId === id).length);
        doubleRuns += perCall.filter((n) => n > 1).length;
        expect(perCall).toEqual(requestIds.map(() => 1));
        expect(runs.map((r) => r.attempt)).toEqual(requestIds.map(() => 1));
        // Exactly one process resumed the turn; the others report that another process held it
        // (or, reading after it was answered, that nothing was open).
        const results = ends.filter(
          (e): e is Extract<RaceWorkerEvent, { event: 'result' }> => e.event === 'result',
        );
        expect(results.filter((r) => r.steps > 0)).toHaveLength(1);
        for (const r of results.filter((r) => r.steps === 0))
          expect(['held_elsewhere', 'done']).toContain(r.status);
        expect(answers).toHaveLength(1);
      }
      expect(doubleRuns).toBe(0);
    });
  }
});

describe('a process re-attaching beside a live loop', () => {
  test('never claims the calls the live loop queued (over its concurrency): each runs once, in the live loop', {
    timeout: TIMEOUT_MS,
  }, async () => {
    const ran: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const book = defineTool({
      name: 'book',
      description: 'Books a trip',
      input: z.object({ to: z.string() }),
      run: async ({ to }, ctx) => {
        ran.push(ctx.requestId);
        await gate;
        return { booked: to };
      },
    });
    const { sessionId } = await client.sessions.create();
    const content = `${CALLS.map((to) => `/tool book {"to":"${to}"}`).join('\n')}\n/then Done.`;
    const live = client.runToolLoop({ sessionId, content, tools: [book], concurrency: 1 });
    // The live loop runs a and queues b, c and d; another process re-attaches meanwhile.
    while (ran.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const [racer] = workers as [Worker];
    racer.send(sessionId);
    // Let the re-attaching process read the turn and try its claims before the live loop goes on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    const result = await live;
    const end = await racer.waitFor(
      (e) => e.event !== 'ready' && e.event !== 'run' && e.sessionId === sessionId,
    );
    expect(result).toMatchObject({ status: 'done', finalText: 'Done.' });
    expect(ran).toHaveLength(4);
    expect(racer.events.filter((e) => e.event === 'run' && e.sessionId === sessionId)).toEqual([]);
    // The loser says what happened: the turn was another's. Never a 409 for a turn it did not send.
    expect(end).toMatchObject({ event: 'result', status: 'held_elsewhere', claimed: [] });
    expect((end as { heldElsewhere: string[] }).heldElsewhere).toHaveLength(4);
  });
});
