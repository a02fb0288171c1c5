// runToolLoop's controls against the reference server: approval, stop conditions, time limits.
// Time: the server runs on a ManualClock and the SDK on fake timers, moved forward together.
import { createReferenceServer, ManualClock, type ReferenceServerOptions } from '@parley/reference-server';
import {
  defineTool,
  hasToolCall,
  Parley,
  stepCountIs,
  type ToolApprovalRequest,
  ToolApprovalTimeoutError,
} from '@parley/sdk';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

function emailTools() {
  const outbox: string[] = [];
  const sendEmail = defineTool({
    name: 'send_email',
    description: 'Sends an email',
    input: z.object({ to: z.string(), body: z.string() }),
    needsApproval: true,
    run: ({ to }) => {
      outbox.push(to);
      return { sent: true };
    },
  });
  const lookup = defineTool({
    name: 'lookup_contact',
    description: 'Finds a contact',
    input: z.object({ name: z.string() }),
    run: ({ name }) => ({ email: `${name}@example.com` }),
  });
  return { sendEmail, lookup, outbox };
}

async function setup(options: ReferenceServerOptions = {}) {
  const server = createReferenceServer(options);
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
  });
  return { server, client };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('approval in the tool loop', () => {
  test('a denial reaches the model as ERROR with the reason and the loop goes on; the step records who approved what', async () => {
    const { client } = await setup();
    const { sendEmail, lookup, outbox } = emailTools();
    const { sessionId } = await client.sessions.create({ tools: [sendEmail, lookup] });
    const result = await client.runToolLoop({
      sessionId,
      content:
        '/tool lookup_contact {"name":"ada"}\n/tool send_email {"to":"ada@example.com","body":"Hi"}\n/tool send_email {"to":"eve@example.com","body":"Hi"}',
      approve: ({ rawInput }) =>
        rawInput.to === 'ada@example.com'
          ? { approved: true, by: 'grace' }
          : { approved: false, reason: 'Eve is not a customer', by: 'grace' },
    });
    expect(result.status).toBe('done');
    expect(outbox).toEqual(['ada@example.com']);
    const [step] = result.steps;
    expect(step?.toolResults.map((r) => r.status)).toEqual(['COMPLETE', 'COMPLETE', 'ERROR']);
    expect(step?.approvals).toEqual([
      {
        requestId: step?.toolResults[1]?.requestId,
        name: 'send_email',
        input: { to: 'ada@example.com', body: 'Hi' },
        outcome: 'approved',
        by: 'grace',
      },
      {
        requestId: step?.toolResults[2]?.requestId,
        name: 'send_email',
        input: { to: 'eve@example.com', body: 'Hi' },
        outcome: 'denied',
        by: 'grace',
        reason: 'Eve is not a customer',
      },
    ]);
    const denial = 'Tool "send_email" was not run: approval was denied: Eve is not a customer';
    expect(await client.tools.get(sessionId, step?.toolResults[2]?.requestId ?? '')).toMatchObject({
      state: 'ERROR',
      error: denial,
    });
    expect(result.finalText).toContain(`Tool send_email failed: ${denial}`);
  });

  test('a tool that needs approval with no approve fails the run at its start, naming it; nothing is sent', async () => {
    const { client, server } = await setup();
    const { sendEmail, lookup } = emailTools();
    const { sessionId } = await client.sessions.create({ tools: [sendEmail, lookup] });
    const before = server.journal.entries().length;
    await expect(client.runToolLoop({ sessionId, content: 'Hi' })).rejects.toThrow(
      'The tool "send_email" needs approval (needsApproval) but no approve callback was given',
    );
    expect(server.journal.entries()).toHaveLength(before);
  });

  test("the lease holds while a person thinks; at the call's deadline the wait ends, the call is ERROR (not abandoned) and the loop goes on", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const clock = new ManualClock(1_000);
    const { client } = await setup({ clock, toolCallTimeoutMs: 60_000 });
    /** Moves the server's clock and the SDK's timers forward together, a quarter second at a time. */
    const advance = async (ms: number) => {
      for (let done = 0; done < ms; done += 250) {
        await clock.advance(250);
        await vi.advanceTimersByTimeAsync(250);
      }
    };
    const { sendEmail } = emailTools();
    const { sessionId } = await client.sessions.create({ tools: [sendEmail] });
    const asked: ToolApprovalRequest[] = [];
    const run = client.runToolLoop({
      sessionId,
      content: '/tool send_email {"to":"ada@example.com","body":"Hi"}\n/then Nobody answered.',
      approve: (request) => {
        asked.push(request);
        return new Promise(() => {}); // no one ever answers
      },
    });
    await advance(30_000); // two leases of 15 s: only heartbeats keep the call
    const requestId = asked[0]?.requestId ?? '';
    const waiting = await client.tools.get(sessionId, requestId);
    expect(waiting.state).toBe('PROCESSING');
    expect(waiting.lastHeartbeatAt).toBeGreaterThan(1_000 + 25_000);
    await advance(30_000);
    const result = await run;
    expect(asked[0]?.signal.reason instanceof ToolApprovalTimeoutError).toBe(true);
    expect(result).toMatchObject({ status: 'done', finalText: 'Nobody answered.' });
    const call = await client.tools.get(sessionId, requestId);
    expect(call.state).toBe('ERROR');
    expect(call.error).toMatch(
      /^Tool "send_email" was not run: no one approved the call before its deadline/,
    );
    expect(call.settledAt).toBeLessThan(call.deadlineAt);
    expect(result.steps[0]?.approvals).toMatchObject([{ outcome: 'timed_out' }]);
  });
});

describe('stop conditions', () => {
  const getWeather = defineTool({
    name: 'get_weather',
    description: 'Weather',
    input: z.object({ city: z.string() }),
    run: ({ city }) => ({ temperatureC: city.length }),
  });
  const submit = defineTool({
    name: 'submit_answer',
    description: 'Submits the final answer',
    input: z.object({ answer: z.string() }),
    endsLoop: true,
    run: ({ answer }) => ({ received: answer }),
  });

  test("stepCountIs: the loop stops after settling the step's calls, with status 'stopped' and the reason, and a later run resumes", async () => {
    const { client } = await setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    const stopped = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"city":"Rome"}\n/tool get_weather {"city":"Oslo"}\n/then Both are mild.',
      stopWhen: stepCountIs(1),
    });
    expect(stopped).toMatchObject({
      status: 'stopped',
      stopped: { by: 'stopWhen', reason: 'stepCountIs(1)', step: 1 },
      stopReason: 'tool_use',
    });
    // No call left open: each is settled on the server.
    for (const { requestId } of stopped.steps[0]?.toolResults ?? []) {
      expect((await client.tools.get(sessionId, requestId)).state).toBe('COMPLETE');
    }
    expect(await client.runToolLoop({ sessionId })).toMatchObject({
      status: 'done',
      finalText: 'Both are mild.',
    });
  });

  test('hasToolCall and a condition of your own: the first that holds stops the loop, and its name is the reason', async () => {
    const { client } = await setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather, submit] });
    const afterRome = (step: { toolResults: Array<{ status: string; output?: unknown }> }) =>
      step.toolResults.some((r) => r.status === 'COMPLETE' && JSON.stringify(r.output).includes('4'));
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"city":"Rome"}',
      stopWhen: [hasToolCall('submit_answer'), afterRome],
    });
    expect(result).toMatchObject({
      status: 'stopped',
      stopped: { by: 'stopWhen', reason: 'afterRome', step: 1 },
    });
  });

  test('a completed call of a tool with endsLoop: true stops the loop; one that failed does not', async () => {
    const { client } = await setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather, submit] });
    const failed = await client.runToolLoop({ sessionId, content: '/tool submit_answer {"answer":42}' });
    expect(failed.status).toBe('done'); // bad input: ERROR, the model may try again
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"city":"Rome"}\n/tool submit_answer {"answer":"mild"}\n/then Submitted.',
    });
    expect(result).toMatchObject({
      status: 'stopped',
      stopped: { by: 'endsLoop', reason: 'submit_answer', step: 1 },
    });
    expect(result.steps[0]?.toolResults.map((r) => r.status)).toEqual(['COMPLETE', 'COMPLETE']);
    expect(result.finalText).toBe('');
  });
});

describe('time limits in the loop', () => {
  test('toolTimeoutMs stops a slow handler: the model reads the limit and the loop goes on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client } = await setup({ clock: new ManualClock(1_000) });
    let aborted: unknown;
    const slow = defineTool({
      name: 'export_report',
      description: 'Exports a report',
      input: z.object({}),
      run: (_input, { signal }) =>
        new Promise<{ rows: number }>((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            reject(signal.reason);
          });
        }),
    });
    const { sessionId } = await client.sessions.create({ tools: [slow] });
    const run = client.runToolLoop({ sessionId, content: '/tool export_report {}', toolTimeoutMs: 800 });
    await vi.advanceTimersByTimeAsync(800);
    const result = await run;
    const message = 'Tool "export_report" ran past its 800 ms time limit and was stopped';
    expect(result.steps[0]?.toolResults[0]).toMatchObject({ status: 'ERROR', error: message });
    expect(aborted).toMatchObject({ name: 'ToolTimeoutError', timeoutMs: 800 });
    expect(result.finalText).toBe(`Tool export_report failed: ${message}.`);
  });

  test('a toolTimeoutMs or stopWhen no loop can use fails the run at its start', async () => {
    const { client } = await setup();
    const { lookup } = emailTools();
    const { sessionId } = await client.sessions.create({ tools: [lookup] });
    await expect(client.runToolLoop({ sessionId, content: 'Hi', toolTimeoutMs: -1 })).rejects.toThrow(
      'runToolLoop: toolTimeoutMs must be a positive number of milliseconds up to 2147483647, got -1',
    );
    await expect(client.runToolLoop({ sessionId, content: 'Hi', stopWhen: 3 as never })).rejects.toThrow(
      'runToolLoop: stopWhen must be a condition (step, steps) => boolean, or a list of them',
    );
  });
});
