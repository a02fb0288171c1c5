import { createInterface } from 'node:readline';
import { parseJob } from './job.js';
import type { ToolWorker } from './tool-worker.js';

/** Jobs run at once when `concurrency` is not set. */
export const DEFAULT_CONCURRENCY = 4;

export interface ServeJobsOptions {
  /** JSON lines of jobs (the worker process's stdin). */
  input: NodeJS.ReadableStream;
  /** Receives one JSON line per job outcome (the worker process's stdout). */
  output: { write(text: string): unknown };
  worker: ToolWorker;
  concurrency?: number;
}

/**
 * Reads jobs until the input ends, runs at most `concurrency` at once, and writes each outcome as a
 * JSON line. A line that is not a valid job gets an `invalid_job` line naming its line number.
 * Resolves when the input has ended and every job has finished.
 */
export async function serveJobs(options: ServeJobsOptions): Promise<void> {
  const { output, worker } = options;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const active = new Set<Promise<void>>();
  let lineNumber = 0;
  for await (const line of createInterface({ input: options.input, terminal: false })) {
    lineNumber++;
    if (line.trim() === '') continue;
    let job: ReturnType<typeof parseJob>;
    try {
      job = parseJob(line);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      output.write(`${JSON.stringify({ type: 'invalid_job', line: lineNumber, error: message })}\n`);
      continue;
    }
    while (active.size >= concurrency) await Promise.race(active);
    const running: Promise<void> = worker.handle(job).then((outcome) => {
      output.write(`${JSON.stringify(outcome)}\n`);
      active.delete(running);
    });
    active.add(running);
  }
  await Promise.all(active);
}
