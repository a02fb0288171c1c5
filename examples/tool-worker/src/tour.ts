import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_USER } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { appModel } from './app-model.js';
import type { Job, JobOutcome } from './job.js';
import { RestartableServer } from './restartable-server.js';
import { spawnWorker, startInProcessWorker, type WorkerConnection } from './worker-connection.js';
import type { WorkerSettings } from './worker-setup.js';

/** The server's lease: short, so heartbeats (a third of it) and stale leases show quickly. */
export const HEARTBEAT_TIMEOUT_MS = 900;

export interface TourOptions {
  output: { write(text: string): unknown };
  /** `process`: the worker is a child process (the default); `in-process`: same code, no spawn. */
  worker?: 'process' | 'in-process';
  /** How long the server stays away in the restart scenario. Default 1 500 ms. */
  downMs?: number;
  /** Worker tuning; see the worker's flags. */
  toolDelayMs?: number;
  reportAttempts?: number;
  recoveryIntervalMs?: number;
}

/** One scenario's facts, as the smoke test checks them. */
export interface ScenarioResult {
  name: string;
  requestId: string;
  outcomes: JobOutcome[];
  /** Terminal reports for the call that reached the server from the worker, with the server's status. */
  workerReports: { status: number; deliveredStatus?: number }[];
  /** `tool_result` blocks for the call in the final conversation: 1 when it was answered, else 0. */
  toolResults: number;
  /** The server's state of the call at the end. */
  finalState: string;
}

/**
 * The app side of the example. It serves a reference server, starts the worker, and plays five
 * scenarios, printing what the app and the worker do:
 * 1. a plain job; 2. the answer to the worker's report is lost (it retries; the repeat is
 * harmless); 3. the server is unreachable for a while (the worker keeps its result and delivers it
 * after checking the call with `tools.get`); 4. the user rewinds while the tool runs (409: the worker
 * stops and reports nothing); 5. the queue delivers jobs 1 and 4 again (nothing runs twice).
 */
export async function runTour(options: TourOptions): Promise<ScenarioResult[]> {
  const print = (who: 'app' | 'worker', text: string) =>
    options.output.write(`${who === 'app' ? 'app    ›' : 'worker ›'} ${text}\n`);
  const server = await RestartableServer.start({ model: appModel, heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS });
  const client = new Parley({ baseUrl: server.url, token: DEMO_USER.token, maxRetries: 0 });
  const settings: WorkerSettings = {
    baseUrl: server.url,
    token: DEMO_USER.token,
    toolDelayMs: options.toolDelayMs ?? 500,
    reportAttempts: options.reportAttempts ?? 2,
    recoveryIntervalMs: options.recoveryIntervalMs ?? 300,
  };
  const onLog = (line: string) => print('worker', line);
  const worker: WorkerConnection =
    options.worker === 'in-process' ? startInProcessWorker(settings, onLog) : spawnWorker(settings, onLog);
  print('app', `reference server at ${server.url} (heartbeat timeout ${HEARTBEAT_TIMEOUT_MS} ms)`);
  print('app', options.worker === 'in-process' ? 'worker running in this process' : 'worker process started');

  const results: ScenarioResult[] = [];
  const scenario = (title: string) => options.output.write(`\n── ${title}\n`);

  /** Sends a question and turns its pending tool call into a job. */
  const ask = async (question: string): Promise<{ job: Job; userIndex: number }> => {
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: question });
    const pending = reply.pendingTools[0];
    if (!pending) throw new Error(`"${question}" did not call a tool`);
    print(
      'app',
      `"${question}" → pending ${pending.name}(${JSON.stringify(pending.input)}) ${pending.requestId}`,
    );
    const userIndex = reply.messages.find((m) => m.role === 'user')?.index ?? 0;
    const job: Job = {
      sessionId,
      requestId: pending.requestId,
      name: pending.name,
      input: pending.input,
      heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
      deadlineAt: pending.deadlineAt,
    };
    return { job, userIndex };
  };

  /** Waits for the job's outcome, resumes if the call was answered, and records the facts. */
  const settle = async (name: string, job: Job, outcomes: JobOutcome[], resume: boolean) => {
    const outcome = outcomes.at(-1)!;
    print('app', `outcome: ${outcome.status}, reports accepted: ${outcome.reportsAccepted}`);
    if (resume) {
      const answer = await client.messages.send(job.sessionId, {});
      const text = answer.messages
        .at(-1)
        ?.content.map((b) => (b.type === 'text' ? b.text : ''))
        .join('');
      print('app', `resumed → "${text}"`);
    }
    const messages = await client.messages.export(job.sessionId);
    const toolResults = messages
      .flatMap((m) => m.content)
      .filter((b) => b.type === 'tool_result' && b.tool_use_id === job.requestId).length;
    const reportPath = `/v1/tools/response/${job.sessionId}/${job.requestId}`;
    const workerReports = server.requests
      .filter((r) => r.client === 'tool-worker' && r.method === 'POST' && r.path === reportPath)
      .map(({ status, deliveredStatus }) =>
        deliveredStatus === undefined ? { status } : { status, deliveredStatus },
      );
    const { state } = await client.tools.get(job.sessionId, job.requestId);
    const seen = workerReports.map((r) =>
      r.deliveredStatus ? `${r.status}, delivered as ${r.deliveredStatus}` : r.status,
    );
    print(
      'app',
      `server: call ${state}; reports from the worker: [${seen.join('; ')}]; tool_result blocks in the conversation: ${toolResults}`,
    );
    results.push({ name, requestId: job.requestId, outcomes, workerReports, toolResults, finalState: state });
  };

  try {
    scenario('1. A job, fulfilled with heartbeats');
    const first = await ask("What's the weather in Paris?");
    worker.send(first.job);
    await settle('plain', first.job, [await worker.nextOutcome(first.job.requestId)], true);

    scenario('2. The answer to the report is lost (the server applied it; the worker sees a 502)');
    const second = await ask("What's the weather in London?");
    server.loseNextReportAnswer(second.job.requestId);
    worker.send(second.job);
    await settle('lost answer', second.job, [await worker.nextOutcome(second.job.requestId)], true);

    scenario('3. The server is unreachable for a while (a restart)');
    const third = await ask("What's the weather in Tokyo?");
    worker.send(third.job);
    await sleep(150);
    await server.stop();
    print('app', `server stopped: connections refused for ${options.downMs ?? 1500} ms`);
    await sleep(options.downMs ?? 1500);
    await server.start();
    print('app', 'server listening again on the same port, with the same state');
    await settle('restart', third.job, [await worker.nextOutcome(third.job.requestId)], true);

    scenario('4. The user rewinds while the tool runs (the call is abandoned: 409)');
    const fourth = await ask("What's the weather in Oslo?");
    worker.send(fourth.job);
    await sleep(100);
    const rewind = await client.messages.rewind(fourth.job.sessionId, fourth.userIndex);
    print('app', `rewound: abandoned ${rewind.abandonedToolCalls.join(', ')}`);
    await settle('conflict', fourth.job, [await worker.nextOutcome(fourth.job.requestId)], false);

    scenario('5. The queue delivers jobs 1 and 4 again');
    worker.send(first.job);
    worker.send(fourth.job);
    const again1 = await worker.nextOutcome(first.job.requestId);
    const again4 = await worker.nextOutcome(fourth.job.requestId);
    print('app', `job 1 again: ${again1.status}; job 4 again: ${again4.status}`);
    results.push({ ...results[0]!, name: 'redelivered plain', outcomes: [...results[0]!.outcomes, again1] });
    results.push({
      ...results[3]!,
      name: 'redelivered conflict',
      outcomes: [...results[3]!.outcomes, again4],
    });
  } finally {
    await worker.close().catch(() => {});
    if (!server.listening) await server.start();
    await server.stop();
  }
  return results;
}
