import { Readable } from 'node:stream';
import { DEMO_USER } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { appModel } from '../src/app-model.js';
import { RestartableServer } from '../src/restartable-server.js';
import { serveJobs } from '../src/serve-jobs.js';
import { ToolWorker } from '../src/tool-worker.js';
import { runTour, type ScenarioResult } from '../src/tour.js';
import { spawnWorker } from '../src/worker-connection.js';

describe('tool-worker', () => {
  it('reports each result exactly once through lost answers, a restart, a 409 and redelivery', async () => {
    let transcript = '';
    const results = await runTour({
      output: { write: (text: string) => (transcript += text) },
      worker: 'in-process',
      toolDelayMs: 300,
      downMs: 1000,
      reportAttempts: 2,
      recoveryIntervalMs: 200,
    });
    const byName = new Map(results.map((r) => [r.name, r]));
    const get = (name: string): ScenarioResult => byName.get(name)!;

    // 1. Plain job: one report, one tool_result.
    expect(get('plain').outcomes.map((o) => [o.status, o.reportsAccepted])).toEqual([['COMPLETE', 1]]);
    expect(get('plain').outcomes[0]?.output).toEqual({ city: 'Paris', tempC: 18 });
    expect(get('plain').workerReports).toEqual([{ status: 200 }]);
    expect(get('plain').toolResults).toBe(1);

    // 2. Lost answer: the retry is an identical repeat the server answers 200; still one tool_result.
    expect(get('lost answer').outcomes.map((o) => [o.status, o.reportsAccepted])).toEqual([['COMPLETE', 1]]);
    expect(get('lost answer').workerReports).toEqual([
      { status: 200, deliveredStatus: 502 },
      { status: 200 },
    ]);
    expect(get('lost answer').toolResults).toBe(1);

    // 3. Restart: the SDK's retries ran out while the server was away; the worker kept the result,
    // asked tools.get once the server was back, and delivered it once.
    expect(get('restart').outcomes.map((o) => [o.status, o.reportsAccepted])).toEqual([['COMPLETE', 1]]);
    expect(get('restart').outcomes[0]?.output).toEqual({ city: 'Tokyo', tempC: 22 });
    expect(get('restart').workerReports).toEqual([{ status: 200 }]);
    expect(get('restart').toolResults).toBe(1);
    expect(get('restart').finalState).toBe('COMPLETE');
    expect(transcript).toMatch(/report failed for now \(connection refused\); keeping the result/);
    expect(transcript).toMatch(/server is back: tools\.get says (PENDING|PROCESSING)/);

    // 4. Rewind while running: the 409 ends the job; nothing is reported.
    const conflict = get('conflict');
    expect(['LOST', 'ALREADY_SETTLED']).toContain(conflict.outcomes[0]?.status);
    expect(conflict.outcomes[0]?.reportsAccepted).toBe(0);
    expect(conflict.workerReports.filter((r) => r.status === 200)).toEqual([]);
    expect(conflict.finalState).toBe('ABANDONED');
    expect(conflict.toolResults).toBe(0);

    // 5. Redelivery: nothing runs or is reported again.
    expect(get('redelivered plain').outcomes.map((o) => o.status)).toEqual(['COMPLETE', 'DUPLICATE']);
    expect(get('redelivered conflict').outcomes.at(-1)).toMatchObject({
      status: 'ALREADY_SETTLED',
      detail: 'tools.get: ABANDONED',
      reportsAccepted: 0,
    });
  });

  it('runs as a separate process: jobs in as JSON lines on stdin, outcomes out on stdout', async () => {
    const server = await RestartableServer.start({ model: appModel, heartbeatTimeoutMs: 900 });
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
      expect(logs.some((line) => line.endsWith('running get_weather({"city":"Oslo"})'))).toBe(true);
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
