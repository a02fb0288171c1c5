import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Job, JobOutcome } from './job.js';
import { settingsToArgs, type WorkerSettings } from './worker-setup.js';

/**
 * The app side's end of the job queue: jobs go to the worker process's stdin as JSON lines,
 * outcomes come back on its stdout, its log on stderr.
 */
export class WorkerConnection {
  readonly #stdin: NodeJS.WritableStream;
  readonly #outcomes: JobOutcome[] = [];
  readonly #logs: string[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #finished: Promise<void>;
  #closed = false;

  constructor(
    streams: { stdin: NodeJS.WritableStream; stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream },
    onLog: (line: string) => void,
    finished: Promise<void>,
  ) {
    this.#stdin = streams.stdin;
    this.#finished = finished;
    createInterface({ input: streams.stderr, terminal: false }).on('line', (line) => {
      this.#logs.push(line);
      onLog(line);
      for (const wake of this.#waiters) wake();
    });
    createInterface({ input: streams.stdout, terminal: false }).on('line', (line) => {
      const message = JSON.parse(line) as JobOutcome | { type: 'invalid_job' };
      if (message.type === 'outcome') this.#outcomes.push(message);
      else onLog(`(invalid job) ${line}`);
      for (const wake of this.#waiters) wake();
    });
  }

  /** Puts a job on the worker's queue. */
  send(job: Job): void {
    this.#stdin.write(`${JSON.stringify(job)}\n`);
  }

  /** The next outcome for this call not yet taken (a redelivered job gets a second outcome). */
  async nextOutcome(requestId: string): Promise<JobOutcome> {
    for (;;) {
      const at = this.#outcomes.findIndex((outcome) => outcome.requestId === requestId);
      if (at >= 0) return this.#outcomes.splice(at, 1)[0]!;
      if (this.#closed) throw new Error(`The worker ended without an outcome for ${requestId}`);
      await this.#nextLine();
    }
  }

  /** Resolves once the worker has logged `line` (now or earlier). */
  async waitForLog(line: string): Promise<void> {
    while (!this.#logs.includes(line)) {
      if (this.#closed) throw new Error(`The worker ended without logging "${line}"`);
      await this.#nextLine();
    }
  }

  #nextLine(): Promise<void> {
    return new Promise<void>((wake) => {
      const once = () => {
        this.#waiters.delete(once);
        wake();
      };
      this.#waiters.add(once);
    });
  }

  /** Ends the job stream and waits for the worker to finish its jobs and exit. */
  async close(): Promise<void> {
    this.#stdin.end();
    await this.#finished;
    this.#closed = true;
    for (const wake of this.#waiters) wake();
  }
}

/** Starts the worker as a separate Node.js process (`src/worker.ts` through tsx). */
export function spawnWorker(settings: WorkerSettings, onLog: (line: string) => void): WorkerConnection {
  const entry = fileURLToPath(new URL('./worker.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@parley/source', entry, ...settingsToArgs(settings)],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PARLEY_TOKEN: settings.token } },
  );
  const finished = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`The worker exited with ${code}`)),
    );
  });
  return new WorkerConnection(child, onLog, finished);
}
