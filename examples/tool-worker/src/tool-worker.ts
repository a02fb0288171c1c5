import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AnyTool,
  isAPIError,
  isAPIUserAbortError,
  isConflictError,
  isNotFoundError,
  type Parley,
  reportUnknownTool,
  runTool,
  type ToolCall,
  type ToolRunResult,
  type ToolTransport,
} from '@parley/sdk';
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
}

/** The result a handler produced, kept until the server has it. */
type KeptResult = { kind: 'complete'; output: Record<string, unknown> } | { kind: 'error'; message: string };

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
  readonly #journal = new Map<string, JobOutcome>();
  readonly #running = new Map<string, Promise<JobOutcome>>();

  constructor(options: ToolWorkerOptions) {
    this.#client = options.client;
    this.#tools = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.#log = options.log ?? (() => {});
    this.#reportAttempts = options.reportAttempts ?? DEFAULT_REPORT_ATTEMPTS;
    this.#recoveryIntervalMs = options.recoveryIntervalMs ?? DEFAULT_RECOVERY_INTERVAL_MS;
    this.#maxRecoveryMs = options.maxRecoveryMs ?? DEFAULT_MAX_RECOVERY_MS;
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
      return fromRunResult(job, result, result.status === 'ERROR' ? 1 : 0);
    }

    // Delivered before? A queue delivers at least once; the server knows whether the call is settled.
    const call = await this.#lookUp(job);
    if (call === 'NOT_FOUND')
      return outcome(job, 'LOST', 0, { detail: 'tools.get: the call does not exist' });
    if (call !== undefined && call.state !== 'PENDING' && call.state !== 'PROCESSING') {
      this.#say(job, `tools.get: already ${call.state}, not running it`);
      return outcome(job, 'ALREADY_SETTLED', 0, { detail: `tools.get: ${call.state}` });
    }

    this.#say(job, `running ${job.name}(${JSON.stringify(job.input)})`);
    let kept: KeptResult | undefined;
    let accepted = 0;
    let beats = 0;
    const transport: ToolTransport = {
      heartbeat: async (...args) => {
        await this.#client.tools.heartbeat(...args);
        this.#say(job, `♥ heartbeat ${++beats}`);
      },
      respond: (...args) =>
        this.#report(
          job,
          () => this.#client.tools.respond(...args),
          () => accepted++,
        ),
      fail: (...args) =>
        this.#report(
          job,
          () => this.#client.tools.fail(...args),
          () => accepted++,
        ),
    };
    // runTool does not hand back the output when its report fails for good, so keep it here.
    const keeping: AnyTool = {
      ...tool,
      run: async (input, ctx) => {
        try {
          const output = await tool.run(input, ctx);
          kept = { kind: 'complete', output: tool.output ? tool.output.parse(output) : output };
          return output;
        } catch (error) {
          kept = { kind: 'error', message: errorMessage(error, job.name) };
          throw error;
        }
      },
    };

    try {
      const result = await runTool(transport, {
        sessionId: job.sessionId,
        pending: job,
        tool: keeping,
        heartbeatTimeoutMs: job.heartbeatTimeoutMs,
        maxReportAttempts: this.#reportAttempts,
        onHeartbeatError: (error) => this.#say(job, `heartbeat failed (${describe(error)}); still working`),
      });
      const done = fromRunResult(job, result, accepted);
      this.#say(
        job,
        `${done.status}${done.output ? ` ${JSON.stringify(done.output)}` : ''}${done.detail ? `: ${done.detail}` : ''}`,
      );
      return done;
    } catch (error) {
      if (kept === undefined || isAPIUserAbortError(error)) {
        return outcome(job, 'FAILED', accepted, { detail: describe(error) });
      }
      this.#say(job, `report failed for now (${describe(error)}); keeping the result`);
      return this.#recover(job, kept, accepted);
    }
  }

  /**
   * Delivers a kept result once the server answers again: ask `tools.get` what it knows, then send
   * the same report. Sending it again is safe: an identical repeat of a report that did land is
   * answered 200 and changes nothing; another worker's different result is a 409.
   */
  async #recover(job: Job, kept: KeptResult, acceptedBefore: number): Promise<JobOutcome> {
    const until = Math.min(job.deadlineAt ?? Number.POSITIVE_INFINITY, Date.now() + this.#maxRecoveryMs);
    while (Date.now() < until) {
      await sleep(this.#recoveryIntervalMs);
      let call: ToolCall;
      try {
        call = await this.#client.tools.get(job.sessionId, job.requestId, {
          maxRetries: 0,
          timeoutMs: this.#recoveryIntervalMs * 2,
        });
      } catch (error) {
        if (isNotFoundError(error))
          return outcome(job, 'LOST', acceptedBefore, { detail: 'the call is gone' });
        this.#say(job, `server still unreachable (${describe(error)})`);
        continue;
      }
      this.#say(job, `server is back: tools.get says ${call.state}`);
      if (call.state === 'ABANDONED') {
        return outcome(job, 'ALREADY_SETTLED', acceptedBefore, {
          detail: 'abandoned while the server was away',
        });
      }
      try {
        const options = { maxRetries: 0 };
        if (kept.kind === 'complete')
          await this.#client.tools.respond(job.sessionId, job.requestId, kept.output, options);
        else await this.#client.tools.fail(job.sessionId, job.requestId, kept.message, options);
      } catch (error) {
        if (isConflictError(error)) {
          this.#say(job, '409: settled by someone else; not reporting');
          return outcome(job, 'ALREADY_SETTLED', acceptedBefore, {
            detail: `409 after the restart (${call.state})`,
          });
        }
        if (isNotFoundError(error))
          return outcome(job, 'LOST', acceptedBefore, { detail: 'the call is gone' });
        this.#say(job, `report failed again (${describe(error)})`);
        continue;
      }
      const landed =
        call.state === 'PENDING' || call.state === 'PROCESSING'
          ? 'delivered'
          : 'was already in (identical repeat)';
      this.#say(job, `report ${landed}`);
      // A 200 for an identical repeat means the first report had landed: still one report.
      const accepted = Math.max(1, acceptedBefore);
      return kept.kind === 'complete'
        ? outcome(job, 'COMPLETE', accepted, { output: kept.output })
        : outcome(job, 'ERROR', accepted, { detail: kept.message });
    }
    return outcome(job, 'FAILED', acceptedBefore, {
      detail: 'the server did not come back before the deadline',
    });
  }

  /** One attempt of a terminal report, logged when it fails (runTool decides whether to retry). */
  async #report(job: Job, send: () => Promise<void>, onAccepted: () => void): Promise<void> {
    try {
      await send();
      onAccepted();
    } catch (error) {
      this.#say(job, `report attempt failed (${describe(error)})`);
      throw error;
    }
  }

  /** The call as the server sees it; `undefined` when the server cannot be reached (run anyway). */
  async #lookUp(job: Job): Promise<ToolCall | 'NOT_FOUND' | undefined> {
    try {
      return await this.#client.tools.get(job.sessionId, job.requestId);
    } catch (error) {
      if (isNotFoundError(error)) return 'NOT_FOUND';
      this.#say(job, `tools.get failed (${describe(error)}); running anyway`);
      return undefined;
    }
  }

  #say(job: Job, text: string): void {
    this.#log(`[${job.requestId.slice(-6)}] ${text}`);
  }
}

function fromRunResult(job: Job, result: ToolRunResult, accepted: number): JobOutcome {
  switch (result.status) {
    case 'COMPLETE':
      return outcome(job, 'COMPLETE', accepted, result.output ? { output: result.output } : {});
    case 'ERROR':
      return outcome(job, 'ERROR', accepted, { detail: result.error ?? '' });
    case 'LOST':
    case 'ALREADY_SETTLED':
      return outcome(job, result.status, accepted, { detail: result.error ?? '' });
  }
}

function outcome(
  job: Job,
  status: JobStatus,
  reportsAccepted: number,
  extra: { output?: Record<string, unknown>; detail?: string } = {},
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

/** The message runTool reports for a thrown error, so a repeat of the report is identical. */
function errorMessage(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return message.trim() !== '' ? message : `Tool "${name}" failed without a message`;
}

/** A short reason: the system error code of a connection failure, the status of an API error, or the message. */
function describe(error: unknown): string {
  if (isAPIError(error)) return `${error.status}${error.code ? ` ${error.code}` : ''}`;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'connection refused' : code;
    current = current.cause;
  }
  return error instanceof Error ? error.message : String(error);
}
