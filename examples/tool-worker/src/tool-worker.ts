import {
  type AnyTool,
  APIError,
  ConflictError,
  NotFoundError,
  type Parley,
  type ToolCall,
  ToolCallLostError,
  ToolReportError,
  type ToolRunResult,
} from '@parley/sdk';
import { reportUnknownTool, runTool } from '@parley/sdk/tools';
import { systemClock, type WorkerClock } from './clock.js';
import type { Job, JobOutcome, JobStatus } from './job.js';

/** Report attempts inside `runTool` (SDK backoff) before the worker's own recovery takes over. */
export const DEFAULT_REPORT_ATTEMPTS = 3;
/** Wait between two recovery rounds: `tools.get`, then the report again. */
export const DEFAULT_RECOVERY_INTERVAL_MS = 500;
/** Longest recovery for a job without a deadline. */
export const DEFAULT_MAX_RECOVERY_MS = 60_000;

/** Statuses after which a redelivered job is not run again. */
const FINAL: ReadonlySet<JobStatus> = new Set(['COMPLETE', 'ERROR', 'ALREADY_SETTLED']);

export interface ToolWorkerOptions {
  client: Parley;
  tools: readonly AnyTool[];
  /** Human-readable progress lines. */
  log?: (line: string) => void;
  /** Default {@link DEFAULT_REPORT_ATTEMPTS}. */
  reportAttempts?: number;
  /** Default {@link DEFAULT_RECOVERY_INTERVAL_MS}. */
  recoveryIntervalMs?: number;
  /** Default {@link DEFAULT_MAX_RECOVERY_MS}. */
  maxRecoveryMs?: number;
  /**
   * The recovery loop's time: it sleeps on it between rounds and compares it with the call's
   * `deadlineAt`. Default: real time. (The heartbeat and the report retries inside `runTool` run on
   * `setTimeout`.)
   */
  clock?: WorkerClock;
}

/** The result a handler produced, kept until the server has it (`runTool` hands it back on failure). */
type KeptResult = ToolReportError['report'];

/**
 * Fulfils tool-call jobs: each runs with `runTool` (automatic heartbeat, report retried on
 * connection errors and 5xx). On top of that, the worker
 * - keeps the handler's result when the report fails for good (a server restart can outlast any
 *   retry budget) and delivers it later, after asking `tools.get` what the server knows;
 * - never reports twice: a 409 ends the job, a job delivered again after it was settled is
 *   answered from the journal, and one delivered while running joins the running one.
 */
export class ToolWorker {
  readonly #client: Parley;
  readonly #tools: Map<string, AnyTool>;
  readonly #log: (line: string) => void;
  readonly #reportAttempts: number;
  readonly #recoveryIntervalMs: number;
  readonly #maxRecoveryMs: number;
  readonly #clock: WorkerClock;
  readonly #journal = new Map<string, JobOutcome>();
  readonly #running = new Map<string, Promise<JobOutcome>>();

  constructor(options: ToolWorkerOptions) {
    this.#client = options.client;
    this.#tools = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.#log = options.log ?? (() => {});
    this.#reportAttempts = options.reportAttempts ?? DEFAULT_REPORT_ATTEMPTS;
    this.#recoveryIntervalMs = options.recoveryIntervalMs ?? DEFAULT_RECOVERY_INTERVAL_MS;
    this.#maxRecoveryMs = options.maxRecoveryMs ?? DEFAULT_MAX_RECOVERY_MS;
    this.#clock = options.clock ?? systemClock;
  }

  /** Runs one job to its end. Never rejects: every way it can end is a {@link JobOutcome}. */
  async handle(job: Job): Promise<JobOutcome> {
    const key = `${job.sessionId}/${job.requestId}`;
    const known = this.#journal.get(key);
    if (known && FINAL.has(known.status)) {
      this.#say(job, `delivered again: already ${known.status}, not run or reported again`);
      return outcome(job, 'DUPLICATE', 0, { detail: `already ${known.status}` });
    }
    const running = this.#running.get(key);
    if (running) {
      this.#say(job, 'delivered again while running: joining the running job');
      const first = await running;
      return outcome(job, 'DUPLICATE', 0, { detail: `joined the running job (${first.status})` });
    }
    const run = this.#run(job).catch((error: unknown) =>
      outcome(job, 'FAILED', 0, { detail: `unexpected: ${describe(error)}` }),
    );
    this.#running.set(key, run);
    try {
      const result = await run;
      this.#journal.set(key, result);
      return result;
    } finally {
      this.#running.delete(key);
    }
  }

  async #run(job: Job): Promise<JobOutcome> {
    const tool = this.#tools.get(job.name);
    if (!tool) {
      const result = await reportUnknownTool(this.#client, {
        sessionId: job.sessionId,
        pending: job,
        available: [...this.#tools.keys()],
      });
      return fromRunResult(job, result);
    }

    // Delivered before? A queue delivers at least once; the server knows whether the call is settled.
    const call = await this.#lookUp(job);
    if (call === 'NOT_FOUND')
      return outcome(job, 'LOST', 0, {
        detail: 'tools.get: the call does not exist',
        lostReason: 'NOT_FOUND',
      });
    if (call !== undefined && call.state !== 'PENDING' && call.state !== 'PROCESSING') {
      this.#say(job, `tools.get: already ${call.state}, not running it`);
      return outcome(job, 'ALREADY_SETTLED', 0, { detail: `tools.get: ${call.state}` });
    }

    this.#say(job, `running ${job.name}(${JSON.stringify(job.input)})`);
    try {
      const result = await runTool(this.#client, {
        sessionId: job.sessionId,
        pending: job,
        tool,
        heartbeatTimeoutMs: job.heartbeatTimeoutMs,
        maxReportAttempts: this.#reportAttempts,
        onHeartbeat: (beats) => this.#say(job, `♥ heartbeat ${beats}`),
        onHeartbeatError: (error) => this.#say(job, `heartbeat failed (${describe(error)}); still working`),
      });
      const done = fromRunResult(job, result);
      this.#say(
        job,
        `${done.status}${done.output ? ` ${JSON.stringify(done.output)}` : ''}${done.detail ? `: ${done.detail}` : ''}`,
      );
      return done;
    } catch (error) {
      // runTool hands the result back with the error when its report fails for good.
      if (!(error instanceof ToolReportError)) return outcome(job, 'FAILED', 0, { detail: describe(error) });
      this.#say(job, `report failed for now (${describe(error.cause)}); keeping the result`);
      return this.#recover(job, error.report);
    }
  }

  /**
   * Delivers a kept result once the server answers again: ask `tools.get` what it knows, then send
   * the same report. Sending it again is safe: an identical repeat of a report that did land is
   * answered 200 and changes nothing; another worker's different result is a 409.
   */
  async #recover(job: Job, kept: KeptResult): Promise<JobOutcome> {
    const clock = this.#clock;
    const until = Math.min(job.deadlineAt ?? Number.POSITIVE_INFINITY, clock.now() + this.#maxRecoveryMs);
    while (clock.now() < until) {
      await clock.sleep(this.#recoveryIntervalMs);
      let call: ToolCall;
      try {
        call = await this.#client.tools.get(job.sessionId, job.requestId, {
          maxRetries: 0,
          timeoutMs: this.#recoveryIntervalMs * 2,
        });
      } catch (error) {
        if (error instanceof NotFoundError)
          return outcome(job, 'LOST', 0, { detail: 'the call is gone', lostReason: 'NOT_FOUND' });
        this.#say(job, `server still unreachable (${describe(error)})`);
        continue;
      }
      this.#say(job, `server is back: tools.get says ${call.state}`);
      if (call.state === 'ABANDONED') {
        return outcome(job, 'ALREADY_SETTLED', 0, { detail: 'abandoned while the server was away' });
      }
      try {
        const options = { maxRetries: 0 };
        if (kept.kind === 'complete')
          await this.#client.tools.respond(job.sessionId, job.requestId, kept.output, options);
        else await this.#client.tools.fail(job.sessionId, job.requestId, kept.message, options);
      } catch (error) {
        if (error instanceof ConflictError) {
          this.#say(job, '409: settled by someone else; not reporting');
          return outcome(job, 'ALREADY_SETTLED', 0, { detail: `409 after the restart (${call.state})` });
        }
        if (error instanceof NotFoundError)
          return outcome(job, 'LOST', 0, { detail: 'the call is gone', lostReason: 'NOT_FOUND' });
        this.#say(job, `report failed again (${describe(error)})`);
        continue;
      }
      const landed =
        call.state === 'PENDING' || call.state === 'PROCESSING'
          ? 'delivered'
          : 'was already in (identical repeat)';
      this.#say(job, `report ${landed}`);
      // A 200 for an identical repeat means the first report had landed: still one report.
      return kept.kind === 'complete'
        ? outcome(job, 'COMPLETE', 1, { output: kept.output })
        : outcome(job, 'ERROR', 1, { detail: kept.message });
    }
    return outcome(job, 'FAILED', 0, { detail: 'the server did not come back before the deadline' });
  }

  /** The call as the server sees it; `undefined` when the server cannot be reached (run anyway). */
  async #lookUp(job: Job): Promise<ToolCall | 'NOT_FOUND' | undefined> {
    try {
      return await this.#client.tools.get(job.sessionId, job.requestId);
    } catch (error) {
      if (error instanceof NotFoundError) return 'NOT_FOUND';
      this.#say(job, `tools.get failed (${describe(error)}); running anyway`);
      return undefined;
    }
  }

  #say(job: Job, text: string): void {
    this.#log(`${jobTag(job.requestId)} ${text}`);
  }
}

/** How the worker's log lines name a job: `[` the last six characters of its request id `]`. */
export function jobTag(requestId: string): string {
  return `[${requestId.slice(-6)}]`;
}

function fromRunResult(job: Job, result: ToolRunResult): JobOutcome {
  switch (result.status) {
    // runTool resolves COMPLETE / ERROR only once the server answered the report with 200.
    case 'COMPLETE':
      return outcome(job, 'COMPLETE', 1, result.output ? { output: result.output } : {});
    case 'ERROR':
      return outcome(job, 'ERROR', 1, { detail: result.error ?? '' });
    case 'LOST':
      return outcome(job, 'LOST', 0, {
        detail: result.error ?? '',
        ...(result.cause instanceof ToolCallLostError ? { lostReason: result.cause.reason } : {}),
      });
    case 'ALREADY_SETTLED':
      return outcome(job, 'ALREADY_SETTLED', 0, { detail: result.error ?? '' });
  }
}

function outcome(
  job: Job,
  status: JobStatus,
  reportsAccepted: number,
  extra: Pick<JobOutcome, 'output' | 'detail' | 'lostReason'> = {},
): JobOutcome {
  return {
    type: 'outcome',
    sessionId: job.sessionId,
    requestId: job.requestId,
    name: job.name,
    status,
    ...extra,
    reportsAccepted,
  };
}

/** A short reason: the system error code of a connection failure, the status of an API error, or the message. */
function describe(error: unknown): string {
  if (error instanceof APIError) return `${error.status}${error.code ? ` ${error.code}` : ''}`;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'connection refused' : code;
    current = current.cause;
  }
  return error instanceof Error ? error.message : String(error);
}
