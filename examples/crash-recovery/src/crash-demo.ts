// The demo: a worker process is killed with SIGKILL in the middle of a tool call, and a new worker
// process re-attaches to the conversation with `runToolLoop({ reattach: true })`.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Clock } from '@parley/reference-server';
import { startServer } from '@parley/reference-server/node';
import { Parley } from '@parley/sdk';
import type { WorkerLine } from './booking-worker.js';

const QUESTION = '/tool book_flight {"to":"Oslo"}\n/then Your flight to Oslo is booked.';
/** How long a worker may take to print a line before the demo gives up on it. */
const LINE_TIMEOUT_MS = 30_000;

export interface CrashDemoOptions {
  print: (text: string) => void;
  /** The server's lease: a dead worker's call is claimable this long after its last beat. */
  leaseMs?: number;
  /**
   * The server's clock, and how to let a dead worker's lease run out on it. Default: real time
   * (wait out the lease). Tests pass a ManualClock and move it.
   */
  clock?: { clock: Clock; leaseRunsOut: (leaseMs: number) => Promise<void> };
}

export interface CrashDemoResult {
  answer: string;
  /** Every line both workers printed, in order. */
  lines: WorkerLine[];
  /** How many user messages with text the session holds. */
  userMessages: number;
  /** How many bookings the service made for the call (keyed on its requestId). */
  references: string[];
}

/** A worker process and the lines it prints. */
class Worker {
  readonly lines: WorkerLine[] = [];
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #wake: () => void = () => {};

  constructor(args: string[]) {
    const entry = fileURLToPath(new URL('./booking-worker.ts', import.meta.url));
    this.#child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@parley/source', entry, ...args],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    this.#exited = new Promise((resolve) => this.#child.once('exit', () => resolve()));
    void this.#exited.then(() => this.#wake());
    createInterface({ input: this.#child.stdout!, terminal: false }).on('line', (line) => {
      this.lines.push(JSON.parse(line) as WorkerLine);
      this.#wake();
    });
  }

  async next<T extends WorkerLine['type']>(type: T): Promise<Extract<WorkerLine, { type: T }>> {
    const giveUpAt = Date.now() + LINE_TIMEOUT_MS;
    for (;;) {
      const line = this.lines.find((l): l is Extract<WorkerLine, { type: T }> => l.type === type);
      if (line) return line;
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) {
        throw new Error(`The worker exited before printing "${type}"`);
      }
      if (Date.now() >= giveUpAt)
        throw new Error(`The worker printed no "${type}" within ${LINE_TIMEOUT_MS} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, giveUpAt - Date.now());
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async kill(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exited;
  }
}

/** Resolves once the call reads PROCESSING on the server (a worker's beat landed). */
async function processing(client: Parley, sessionId: string, requestId: string): Promise<void> {
  const giveUpAt = Date.now() + LINE_TIMEOUT_MS;
  while ((await client.tools.get(sessionId, requestId)).state !== 'PROCESSING') {
    if (Date.now() >= giveUpAt) throw new Error(`The call ${requestId} was never claimed`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function runCrashDemo(options: CrashDemoOptions): Promise<CrashDemoResult> {
  const { print } = options;
  const leaseMs = options.leaseMs ?? 1_500;
  const running = await startServer({
    port: 0,
    heartbeatTimeoutMs: leaseMs,
    ...(options.clock && { clock: options.clock.clock }),
  });
  const workers: Worker[] = [];
  try {
    const client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
    const { sessionId } = await client.sessions.create();
    const common = ['--base-url', running.url, '--session', sessionId, '--lease-ms', String(leaseMs)];

    print('worker 1: sends the question and starts booking\n');
    const first = new Worker([...common, '--send', QUESTION, '--slow']);
    workers.push(first);
    const booking = await first.next('booking');
    print(`worker 1: booking ${booking.to} (call ${booking.requestId}, attempt ${booking.attempt})\n`);
    // Kill it once the server holds the call as its (its first heartbeat landed).
    await processing(client, sessionId, booking.requestId);
    await first.kill();
    print('worker 1: killed with SIGKILL in the middle of the call\n');

    const left = await client.tools.get(sessionId, booking.requestId);
    print(`server: the call is ${left.state}; its lease runs out ${leaseMs} ms after the last beat\n`);
    if (options.clock) await options.clock.leaseRunsOut(leaseMs);
    else await new Promise((resolve) => setTimeout(resolve, leaseMs));

    print('worker 2: re-attaches with runToolLoop({ reattach: true })\n');
    const second = new Worker([...common, '--resume']);
    workers.push(second);
    const again = await second.next('booking');
    print(
      `worker 2: booking ${again.to} again (attempt ${again.attempt}, idempotency key ${again.requestId})\n`,
    );
    const done = await second.next('done');
    print(
      `worker 2: ${done.status}: claimed ${done.claimed}, held elsewhere ${done.heldElsewhere}, completed ${done.completed}\n`,
    );
    print(`answer: ${done.answer}\n`);

    const messages = await client.messages.export(sessionId);
    const userMessages = messages.filter(
      (m) => m.role === 'user' && m.content.some((b) => b.type === 'text'),
    );
    const lines = [...first.lines, ...second.lines];
    const references = lines.flatMap((l) => (l.type === 'booked' ? [l.reference] : []));
    print(`the session holds ${userMessages.length} user message; bookings made: ${references.length}\n`);
    return { answer: done.answer, lines, userMessages: userMessages.length, references };
  } finally {
    await Promise.all(workers.map((worker) => worker.kill()));
    await running.close();
  }
}
