import { Readable } from 'node:stream';
import { DEMO_USER, ManualClock } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { heartbeatIntervalMs } from '@parley/sdk/tools';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appModel } from '../src/app-model.js';
import { askForTool, callFacts, resume } from '../src/app-side.js';
import type { Job } from '../src/job.js';
import { RestartableServer } from '../src/restartable-server.js';
import { serveJobs } from '../src/serve-jobs.js';
import { jobTag, ToolWorker } from '../src/tool-worker.js';
import { HEARTBEAT_TIMEOUT_MS } from '../src/tour.js';
import { spawnWorker } from '../src/worker-connection.js';
import { createWorker } from '../src/worker-setup.js';

// The SDK's first retry backoff is at most this (docs/sdk.md, Retries); not exported, as no tuning constant is.
const INITIAL_RETRY_DELAY_MS = 500;

const TOOL_DELAY_MS = 500;
const RECOVERY_INTERVAL_MS = 100;
/** Each call's deadline after its creation (shorter than the worker's longest recovery, 60 s). */
const TOOL_CALL_TIMEOUT_MS = 30_000;
/** The SDK's heartbeat interval for the server's timeout (jitter only shortens it). */
const HEARTBEAT_INTERVAL_MS = heartbeatIntervalMs(HEARTBEAT_TIMEOUT_MS);

/** The worker's log, with a way to wait for a line: the tests' only synchronisation with the worker. */
/** Resolves once `check()` holds, looking again after each turn of the event loop (real I/O). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise<void>((resolve) => setImmediate(resolve));
}

class LogBook {
  readonly lines: string[] = [];
  readonly #waiters = new Set<() => void>();

  push = (line: string): void => {
    this.lines.push(line);
    for (const wake of this.#waiters) wake();
  };

  /** The lines about one job, without its tag. */
  of(job: Job): string[] {
    const tag = `${jobTag(job.requestId)} `;
    return this.lines.filter((line) => line.startsWith(tag)).map((line) => line.slice(tag.length));
  }

  /** Resolves once the worker logged `text` about `job`. */
  async waitFor(job: Job, text: string | RegExp): Promise<void> {
    const seen = () =>
      this.of(job).some((line) => (typeof text === 'string' ? line === text : text.test(line)));
    while (!seen()) {
      await new Promise<void>((wake) => {
        const once = () => {
          this.#waiters.delete(once);
          wake();
        };
        this.#waiters.add(once);
      });
    }
  }
}

/**
 * Each scenario runs the worker in this process against a reference server behind real HTTP. Time
 * never passes on its own:
 * - one `ManualClock` is the server's time (leases, deadlines) and the worker's (the tool's work and
 *   the pause between recovery rounds), moved with `clock.advance`;
 * - the SDK's heartbeat timer and report backoff run on `setTimeout`, faked and moved with
 *   `vi.advanceTimersByTimeAsync`.
 * The test moves either only once the worker's log shows it is waiting for it.
 */
describe('tool-worker scenarios (manual clock, fake timers)', () => {
  let clock: ManualClock;
  let server: RestartableServer;
  let client: Parley;
  let logs: LogBook;
  let worker: ToolWorker;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    clock = new ManualClock(1_000_000);
    server = await RestartableServer.start({
      model: appModel,
      heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
      toolCallTimeoutMs: TOOL_CALL_TIMEOUT_MS,
      clock,
    });
    client = new Parley({ baseUrl: server.url, token: DEMO_USER.token, maxRetries: 0 });
    logs = new LogBook();
    worker = createWorker(
      {
        baseUrl: server.url,
        token: DEMO_USER.token,
        toolDelayMs: TOOL_DELAY_MS,
        reportAttempts: 2,
        recoveryIntervalMs: RECOVERY_INTERVAL_MS,
      },
      logs.push,
      { clock },
    );
  });

  afterEach(async () => {
    vi.useRealTimers();
    if (!server.listening) await server.start();
    await server.stop();
  });

  /**
   * Moves the fake `setTimeout` time in steps of a tenth of the SDK's first backoff until the worker
   * logs `text` about `job`: the client waits its report backoff on `setTimeout`, and each attempt
   * needs real I/O in between.
   */
  const advanceUntilLogged = async (job: Job, text: string) => {
    while (!logs.of(job).includes(text)) {
      await vi.advanceTimersByTimeAsync(INITIAL_RETRY_DELAY_MS / 10);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  /** Waits until the job's first heartbeat went through; the tool is then waiting on the clock. */
  const running = async (job: Job) => {
    await logs.waitFor(job, '♥ heartbeat 1');
    expect(clock.pendingSleeps).toBe(1);
  };

  it('1. a plain job: COMPLETE, one report, one tool_result', async () => {
    const { job } = await askForTool(client, "What's the weather in Paris?");
    const done = worker.handle(job);
    await running(job);
    await clock.advance(TOOL_DELAY_MS);

    expect(await done).toEqual({
      type: 'outcome',
      sessionId: job.sessionId,
      requestId: job.requestId,
      name: 'get_weather',
      status: 'COMPLETE',
      output: { city: 'Paris', tempC: 18 },
      reportsAccepted: 1,
    });
    expect(await resume(client, job.sessionId)).toContain('"tempC":18');
    expect(await callFacts(server, client, job)).toEqual({
      workerReports: [{ status: 200 }],
      toolResults: 1,
      finalState: 'COMPLETE',
    });
    expect(logs.of(job)).toEqual([
      'running get_weather({"city":"Paris"})',
      '♥ heartbeat 1',
      'COMPLETE {"city":"Paris","tempC":18}',
    ]);
  });

  it('2. the answer to the report is lost (502): the retry is an identical repeat, one tool_result', async () => {
    const { job } = await askForTool(client, "What's the weather in London?");
    server.loseNextReportAnswer(job.requestId);
    const done = worker.handle(job);
    await running(job);
    await clock.advance(TOOL_DELAY_MS);
    // The server applied the report and the client got a 502: the client waits its backoff.
    await until(() => server.requests.some((r) => r.client === 'tool-worker' && r.deliveredStatus === 502));
    await vi.advanceTimersByTimeAsync(INITIAL_RETRY_DELAY_MS); // the SDK's first backoff is at most this

    expect(await done).toMatchObject({
      status: 'COMPLETE',
      output: { city: 'London', tempC: 14 },
      reportsAccepted: 1,
    });
    await resume(client, job.sessionId);
    expect(await callFacts(server, client, job)).toEqual({
      workerReports: [{ status: 200, deliveredStatus: 502 }, { status: 200 }],
      toolResults: 1,
      finalState: 'COMPLETE',
    });
  });

  it('3. the server is away longer than the report retries: the result is kept and delivered after tools.get', async () => {
    const { job } = await askForTool(client, "What's the weather in Tokyo?");
    const done = worker.handle(job);
    await running(job);
    await server.stop();
    await clock.advance(TOOL_DELAY_MS); // the tool finishes while the server is away
    // Two attempts, both refused, with the SDK's backoff (on setTimeout) between them.
    await advanceUntilLogged(job, 'report failed for now (connection refused); keeping the result');

    await clock.advance(RECOVERY_INTERVAL_MS); // recovery round 1: still away
    await logs.waitFor(job, 'server still unreachable (connection refused)');
    await server.start();
    // Round 2. 700 ms since the last heartbeat, within the 900 ms lease: still PROCESSING.
    await clock.advance(RECOVERY_INTERVAL_MS);

    expect(await done).toMatchObject({
      status: 'COMPLETE',
      output: { city: 'Tokyo', tempC: 22 },
      reportsAccepted: 1,
    });
    expect(logs.of(job).slice(-3)).toEqual([
      'server still unreachable (connection refused)',
      'server is back: tools.get says PROCESSING',
      'report delivered',
    ]);
    await resume(client, job.sessionId);
    expect(await callFacts(server, client, job)).toEqual({
      workerReports: [{ status: 200 }],
      toolResults: 1,
      finalState: 'COMPLETE',
    });
  });

  it('4. the user rewinds while the tool runs: the next heartbeat gets 409, LOST (ABANDONED), nothing reported', async () => {
    const { job, userIndex } = await askForTool(client, "What's the weather in Oslo?");
    const done = worker.handle(job);
    await running(job);
    const rewind = await client.messages.rewind(job.sessionId, userIndex);
    expect(rewind.abandonedToolCalls).toEqual([job.requestId]);
    // The tool is still working (the clock has not moved); the next beat is due within one interval.
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);

    expect(await done).toEqual({
      type: 'outcome',
      sessionId: job.sessionId,
      requestId: job.requestId,
      name: 'get_weather',
      status: 'LOST',
      lostReason: 'ABANDONED',
      detail: expect.stringContaining('409'),
      reportsAccepted: 0,
    });
    expect(clock.pendingSleeps).toBe(0); // the tool's work was aborted through its signal
    expect(await callFacts(server, client, job)).toEqual({
      workerReports: [],
      toolResults: 0,
      finalState: 'ABANDONED',
    });
  });

  it('5a. a job delivered again after it was settled: DUPLICATE, nothing run or sent', async () => {
    const { job } = await askForTool(client, "What's the weather in Paris?");
    const done = worker.handle(job);
    await running(job);
    await clock.advance(TOOL_DELAY_MS);
    expect((await done).status).toBe('COMPLETE');
    const requestsBefore = server.requests.length;

    expect(await worker.handle(job)).toMatchObject({
      status: 'DUPLICATE',
      detail: 'already COMPLETE',
      reportsAccepted: 0,
    });
    expect(server.requests).toHaveLength(requestsBefore);
  });

  it('5b. a job delivered again while it runs: joins the running job, one report', async () => {
    const { job } = await askForTool(client, "What's the weather in Paris?");
    const first = worker.handle(job);
    await running(job);
    const second = worker.handle(job);
    await clock.advance(TOOL_DELAY_MS);

    expect((await first).status).toBe('COMPLETE');
    expect(await second).toMatchObject({
      status: 'DUPLICATE',
      detail: 'joined the running job (COMPLETE)',
      reportsAccepted: 0,
    });
    expect((await callFacts(server, client, job)).workerReports).toEqual([{ status: 200 }]);
  });

  it('5c. a job for a call that was abandoned: ALREADY_SETTLED from tools.get, not run', async () => {
    const { job, userIndex } = await askForTool(client, "What's the weather in Oslo?");
    await client.messages.rewind(job.sessionId, userIndex);

    expect(await worker.handle(job)).toMatchObject({
      status: 'ALREADY_SETTLED',
      detail: 'tools.get: ABANDONED',
      reportsAccepted: 0,
    });
    expect(logs.of(job)).toEqual(['tools.get: already ABANDONED, not running it']);
  });

  it('6. the server stays away past the call deadline: FAILED, nothing reported', async () => {
    const { job } = await askForTool(client, "What's the weather in Tokyo?");
    const done = worker.handle(job);
    await running(job);
    await server.stop();
    await clock.advance(TOOL_DELAY_MS);
    await advanceUntilLogged(job, 'report failed for now (connection refused); keeping the result');

    // Past the deadline: the round that wakes up fails, and the loop gives up.
    await clock.set(job.deadlineAt!);

    expect(await done).toMatchObject({
      status: 'FAILED',
      detail: 'the server did not come back before the deadline',
      reportsAccepted: 0,
    });
    expect(logs.of(job).filter((line) => line.startsWith('server still unreachable'))).toHaveLength(1);
  });
});

describe('tool-worker process and job stream', () => {
  it('runs as a separate process: jobs in as JSON lines on stdin, outcomes out on stdout', async () => {
    const server = await RestartableServer.start({
      model: appModel,
      heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
    });
    const logs: string[] = [];
    const worker = spawnWorker({ baseUrl: server.url, token: DEMO_USER.token, toolDelayMs: 50 }, (line) =>
      logs.push(line),
    );
    try {
      const client = new Parley({ baseUrl: server.url, token: DEMO_USER.token });
      const { sessionId } = await client.sessions.create();
      const reply = await client.messages.send(sessionId, { content: 'weather in Oslo' });
      const pending = reply.pendingTools[0]!;
      worker.send({ sessionId, requestId: pending.requestId, name: pending.name, input: pending.input });
      await expect(worker.nextOutcome(pending.requestId)).resolves.toMatchObject({
        status: 'COMPLETE',
        output: { city: 'Oslo', tempC: 6 },
        reportsAccepted: 1,
      });
      await worker.close();
      expect(logs).toContain(`${jobTag(pending.requestId)} running get_weather({"city":"Oslo"})`);
      expect((await client.tools.get(sessionId, pending.requestId)).state).toBe('COMPLETE');
    } finally {
      await worker.close().catch(() => {});
      await server.stop();
    }
  });

  it('answers a line that is not a job with invalid_job and its line number', async () => {
    const worker = new ToolWorker({ client: new Parley({ baseUrl: 'http://unused.test' }), tools: [] });
    const lines: string[] = [];
    await serveJobs({
      input: Readable.from(['\n', '{"sessionId":"s"}\n', 'not json\n']),
      output: { write: (text: string) => lines.push(text) },
      worker,
    });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { type: 'invalid_job', line: 2, error: expect.stringContaining('requestId') },
      { type: 'invalid_job', line: 3, error: 'not JSON' },
    ]);
  });
});
