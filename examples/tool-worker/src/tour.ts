import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_USER } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { appModel } from './app-model.js';
import { type AskedJob, askForTool, type CallFacts, callFacts, resume } from './app-side.js';
import type { Job, JobOutcome } from './job.js';
import { RestartableServer } from './restartable-server.js';
import { jobTag } from './tool-worker.js';
import { spawnWorker } from './worker-connection.js';

/** The server's lease: short, so heartbeats (a third of it) and stale leases show quickly. */
export const HEARTBEAT_TIMEOUT_MS = 900;

export interface TourOptions {
  output: { write(text: string): unknown };
  /** How long the server stays away in the restart scenario. Default 1 500 ms. */
  downMs?: number;
  /** Worker tuning; see the worker's flags. */
  toolDelayMs?: number;
  reportAttempts?: number;
  recoveryIntervalMs?: number;
}

/** One scenario's facts, as `main.ts` checks them. */
export interface ScenarioResult extends CallFacts {
  name: string;
  requestId: string;
  outcomes: JobOutcome[];
}

/**
 * The app side of the walkthrough, in real time. It serves a reference server, spawns the worker
 * process, and plays five scenarios, printing what the app and the worker do:
 * 1. a plain job; 2. the answer to the worker's report is lost (it retries; the repeat is
 * harmless); 3. the server is unreachable for a while (the worker keeps its result and delivers it
 * after checking the call with `tools.get`); 4. the user rewinds while the tool runs (409: the worker
 * stops and reports nothing); 5. the queue delivers jobs 1 and 4 again (nothing runs twice).
 * The tests play the same scenarios on a manual clock (`test/tool-worker.test.ts`).
 */
export async function runTour(options: TourOptions): Promise<ScenarioResult[]> {
  const print = (who: 'app' | 'worker', text: string) =>
    options.output.write(`${who === 'app' ? 'app    ›' : 'worker ›'} ${text}\n`);
  const downMs = options.downMs ?? 1500;
  const server = await RestartableServer.start({ model: appModel, heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS });
  const client = new Parley({ baseUrl: server.url, token: DEMO_USER.token, maxRetries: 0 });
  const worker = spawnWorker(
    {
      baseUrl: server.url,
      token: DEMO_USER.token,
      toolDelayMs: options.toolDelayMs ?? 500,
      reportAttempts: options.reportAttempts ?? 2,
      recoveryIntervalMs: options.recoveryIntervalMs ?? 300,
    },
    (line) => print('worker', line),
  );
  print('app', `reference server at ${server.url} (heartbeat timeout ${HEARTBEAT_TIMEOUT_MS} ms)`);
  print('app', 'worker process started');

  const results: ScenarioResult[] = [];
  const scenario = (title: string) => options.output.write(`\n── ${title}\n`);

  /** Sends a question and turns its pending tool call into a job. */
  const ask = async (question: string): Promise<AskedJob> => {
    const asked = await askForTool(client, question);
    const { name, input, requestId } = asked.job;
    print('app', `"${question}" → pending ${name}(${JSON.stringify(input)}) ${requestId}`);
    return asked;
  };
  /** Resolves once the worker's first heartbeat for the job went through: the tool is running. */
  const running = (job: Job) => worker.waitForLog(`${jobTag(job.requestId)} ♥ heartbeat 1`);

  /** Waits for the job's outcome, resumes if the call was answered, and records the facts. */
  const settle = async (name: string, job: Job, outcomes: JobOutcome[], answered: boolean) => {
    const outcome = outcomes.at(-1)!;
    print('app', `outcome: ${outcome.status}, reports accepted: ${outcome.reportsAccepted}`);
    if (answered) print('app', `resumed → "${await resume(client, job.sessionId)}"`);
    const facts = await callFacts(server, client, job);
    const seen = facts.workerReports.map((r) =>
      r.deliveredStatus ? `${r.status}, delivered as ${r.deliveredStatus}` : r.status,
    );
    print(
      'app',
      `server: call ${facts.finalState}; reports from the worker: [${seen.join('; ')}]; tool_result blocks in the conversation: ${facts.toolResults}`,
    );
    results.push({ name, requestId: job.requestId, outcomes, ...facts });
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
    await running(third.job);
    await server.stop();
    print('app', `server stopped: connections refused for ${downMs} ms`);
    await sleep(downMs);
    await server.start();
    print('app', 'server listening again on the same port, with the same state');
    await settle('restart', third.job, [await worker.nextOutcome(third.job.requestId)], true);

    scenario('4. The user rewinds while the tool runs (the call is abandoned: 409)');
    const fourth = await ask("What's the weather in Oslo?");
    worker.send(fourth.job);
    await running(fourth.job);
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
