import type { Parley } from '@parley/sdk';
import {
  APIUserAbortError,
  defineTool,
  runToolLoop,
  type ToolLoopClient,
  type ToolLoopStep,
} from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, expectTypeOf, test, vi } from 'vitest';
import { z } from 'zod';
import { FakeClient } from '../helpers/fake-client.js';
import { apiError } from '../helpers/fake-transport.js';

const sessionId = 'sess_1';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Weather',
  input: z.object({ city: z.string() }),
  run: ({ city }) => ({ temperature: city.length }),
});

/** A tool that takes `ms` (fake time) and counts how many of its runs overlap. */
function slowTool(durations: Record<string, number>) {
  const stats = { running: 0, maxRunning: 0, order: [] as string[] };
  const tool = defineTool({
    name: 'slow',
    description: 'Slow',
    input: z.object({ id: z.string() }),
    async run({ id }, { signal }) {
      stats.running++;
      stats.maxRunning = Math.max(stats.maxRunning, stats.running);
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, durations[id] ?? 100);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
        stats.order.push(id);
        return { id };
      } finally {
        stats.running--;
      }
    },
  });
  return { tool, stats };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('runToolLoop', () => {
  test('sends, runs the pending tools, submits, resumes, until the model ends its turn', async () => {
    const client = new FakeClient([
      { text: 'Let me check.', tools: [{ id: 'tu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { text: 'It is 5 degrees in Paris.' },
    ]);
    const result = await runToolLoop(client, {
      sessionId,
      content: 'Weather in Paris?',
      tools: [getWeather],
    });
    expect(result.status).toBe('done');
    expect(result.stopReason).toBe('end_turn');
    expect(result.finalText).toBe('It is 5 degrees in Paris.');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolResults).toEqual([
      { requestId: 'tu_1', name: 'get_weather', status: 'COMPLETE', output: { temperature: 5 } },
    ]);
    expect(client.sends.map((s) => s.body)).toEqual([{ content: 'Weather in Paris?' }, {}]);
    expect(client.tools.of('respond')).toHaveLength(1);
    expect(result.messages.map((m) => [m.index, m.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [2, 'user'],
      [3, 'assistant'],
    ]);
    expect(result.usage).toEqual({ inputTokens: 2, outputTokens: 4, totalTokens: 6 });
  });

  test('without content it starts by resuming', async () => {
    const client = new FakeClient([{ text: 'Done.' }]);
    const result = await runToolLoop(client, { sessionId, tools: [] });
    expect(client.sends[0]?.body).toEqual({});
    expect(result.finalText).toBe('Done.');
  });

  test('runs the tools of a step in parallel, at most `concurrency` at once, results in call order', async () => {
    const { tool, stats } = slowTool({ a: 300, b: 100, c: 200, d: 50, e: 10 });
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const client = new FakeClient([
      { tools: ids.map((id) => ({ id: `tu_${id}`, name: 'slow', input: { id } })) },
      {},
    ]);
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [tool], concurrency: 2 });
    await vi.advanceTimersByTimeAsync(1_000);
    const result = await run;
    expect(stats.maxRunning).toBe(2);
    expect(stats.order).not.toEqual(ids); // they finished out of order...
    expect(result.steps[0]?.toolResults.map((r) => r.requestId)).toEqual(ids.map((id) => `tu_${id}`)); // ...results did not
    expect(client.tools.of('respond')).toHaveLength(5);
  });

  test('runs up to 4 tools at once by default', async () => {
    const { tool, stats } = slowTool({});
    const calls = Array.from({ length: 9 }, (_, i) => ({
      id: `tu_${i}`,
      name: 'slow',
      input: { id: String(i) },
    }));
    const client = new FakeClient([{ tools: calls }, {}]);
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [tool] });
    await vi.advanceTimersByTimeAsync(1_000);
    await run;
    expect(stats.maxRunning).toBe(4);
  });

  test('an unknown tool name is reported to the model as ERROR naming the available tools', async () => {
    const client = new FakeClient([
      { tools: [{ id: 'tu_1', name: 'get_wether', input: {} }] },
      { text: 'Sorry, let me retry.', tools: [{ id: 'tu_2', name: 'get_weather', input: { city: 'Oslo' } }] },
      { text: 'Oslo: 4.' },
    ]);
    const result = await runToolLoop(client, { sessionId, content: 'Weather?', tools: [getWeather] });
    expect(client.tools.of('fail')[0]).toMatchObject({
      requestId: 'tu_1',
      message: 'Unknown tool "get_wether". Available tools: get_weather',
    });
    expect(result.steps[0]?.toolResults[0]).toMatchObject({ status: 'ERROR' });
    expect(result.status).toBe('done');
    expect(result.finalText).toBe('Oslo: 4.');
  });

  test('stops after maxSteps replies with status max_steps, the last step settled', async () => {
    const forever = (n: number) => ({
      tools: [{ id: `tu_${n}`, name: 'get_weather', input: { city: 'X' } }],
    });
    const client = new FakeClient([forever(1), forever(2), forever(3), forever(4)]);
    const result = await runToolLoop(client, {
      sessionId,
      content: 'loop',
      tools: [getWeather],
      maxSteps: 3,
    });
    expect(result.status).toBe('max_steps');
    expect(result.stopReason).toBe('tool_use');
    expect(result.steps).toHaveLength(3);
    expect(client.sends).toHaveLength(3);
    expect(client.tools.of('respond').map((c) => c.requestId)).toEqual(['tu_1', 'tu_2', 'tu_3']);
  });

  test('caps at 10 steps by default', async () => {
    const client = new FakeClient(
      Array.from({ length: 12 }, (_, n) => ({
        tools: [{ id: `tu_${n}`, name: 'get_weather', input: { city: 'X' } }],
      })),
    );
    const result = await runToolLoop(client, { sessionId, content: 'loop', tools: [getWeather] });
    expect(result.steps).toHaveLength(10);
    expect(result.status).toBe('max_steps');
  });

  test('a maxSteps or concurrency below 1 rejects the run before anything is sent', async () => {
    const client = new FakeClient([]);
    await expect(runToolLoop(client, { sessionId, tools: [], maxSteps: 0 })).rejects.toThrow(RangeError);
    await expect(runToolLoop(client, { sessionId, tools: [], concurrency: 0 })).rejects.toThrow(RangeError);
  });

  test('is iterable step by step, and awaitable on the same run', async () => {
    const client = new FakeClient([
      { tools: [{ id: 'tu_1', name: 'get_weather', input: { city: 'Rome' } }] },
      { tools: [{ id: 'tu_2', name: 'get_weather', input: { city: 'Bern' } }] },
      { text: 'Done.' },
    ]);
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [getWeather] });
    const seen: number[] = [];
    for await (const step of run) seen.push(step.step);
    expect(seen).toEqual([1, 2, 3]);
    const result = await run;
    expect(result.steps.map((s) => s.step)).toEqual([1, 2, 3]);
    // A second iterator replays from the first step.
    const again: ToolLoopStep[] = [];
    for await (const step of run) again.push(step);
    expect(again).toEqual(result.steps);
  });

  test('onStep runs after each step, its tools settled, before the loop resumes', async () => {
    const client = new FakeClient([
      { tools: [{ id: 'tu_1', name: 'get_weather', input: { city: 'A' } }] },
      {},
    ]);
    const events: string[] = [];
    await runToolLoop(client, {
      sessionId,
      content: 'go',
      tools: [getWeather],
      onStep: (step) => {
        events.push(
          `step ${step.step}: responds=${client.tools.of('respond').length} sends=${client.sends.length}`,
        );
      },
    });
    expect(events).toEqual(['step 1: responds=1 sends=1', 'step 2: responds=1 sends=2']);
  });

  test('stream: true streams each reply and forwards assistant text deltas to onText', async () => {
    const client = new FakeClient([
      { text: 'Checking', tools: [{ id: 'tu_1', name: 'get_weather', input: { city: 'Lyon' } }] },
      { text: 'Lyon is 4' },
    ]);
    const deltas: Array<[string, string]> = [];
    const result = await runToolLoop(client, {
      sessionId,
      content: 'Weather in Lyon?',
      tools: [getWeather],
      stream: true,
      onText: (delta, snapshot) => deltas.push([delta, snapshot]),
    });
    expect(client.sends.map((s) => s.mode)).toEqual(['stream', 'stream']);
    expect(deltas).toEqual([
      ['Chec', 'Chec'],
      ['king', 'Checking'],
      ['Lyon ', 'Lyon '],
      ['is 4', 'Lyon is 4'],
    ]);
    expect(result.finalText).toBe('Lyon is 4');
  });

  test('a failing send rejects both the awaited result and the iteration', async () => {
    const client = new FakeClient([apiError(409, 'tool_calls_open')]);
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [] });
    await expect(run).rejects.toMatchObject({ name: 'ConflictError' });
    const iterate = async () => {
      for await (const _ of run) {
        /* nothing */
      }
    };
    await expect(iterate()).rejects.toMatchObject({ name: 'ConflictError' });
  });

  test('steps before a failure are still delivered to the iterator', async () => {
    const client = new FakeClient([
      { tools: [{ id: 'tu_1', name: 'get_weather', input: { city: 'A' } }] },
      apiError(502, 'model_error'),
    ]);
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [getWeather] });
    const seen: number[] = [];
    const iterate = async () => {
      for await (const step of run) seen.push(step.step);
    };
    await expect(iterate()).rejects.toMatchObject({ status: 502 });
    expect(seen).toEqual([1]);
  });

  test('a tool whose report fails for good cancels its siblings and rejects the run', async () => {
    const { tool, stats } = slowTool({ a: 10, b: 10_000 });
    const client = new FakeClient([
      {
        tools: [
          { id: 'tu_a', name: 'slow', input: { id: 'a' } },
          { id: 'tu_b', name: 'slow', input: { id: 'b' } },
        ],
      },
    ]);
    client.tools.behaviour = (call) => (call.kind === 'respond' ? Promise.reject(apiError(401)) : undefined);
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [tool] });
    const settled = run.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(await settled).toMatchObject({ name: 'ToolReportError', cause: { name: 'AuthenticationError' } });
    expect(stats.running).toBe(0);
    expect(stats.order).toEqual(['a']);
  });

  test('the signal aborts the request in flight; the run rejects with APIUserAbortError', async () => {
    const client = new FakeClient(['hang']);
    const controller = new AbortController();
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [], signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('stop'));
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
    expect(client.sends[0]?.options?.signal?.aborted).toBe(true);
  });

  test('the signal aborts the tools that are running, which report nothing', async () => {
    const { tool } = slowTool({ a: 10_000, b: 10_000 });
    const client = new FakeClient([
      {
        tools: [
          { id: 'tu_a', name: 'slow', input: { id: 'a' } },
          { id: 'tu_b', name: 'slow', input: { id: 'b' } },
        ],
      },
    ]);
    const controller = new AbortController();
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [tool], signal: controller.signal });
    await vi.advanceTimersByTimeAsync(500);
    expect(client.tools.of('heartbeat').length).toBeGreaterThan(0);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
    expect(client.tools.of('respond')).toHaveLength(0);
    expect(client.tools.of('fail')).toHaveLength(0);
    const beats = client.tools.of('heartbeat').length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(client.tools.of('heartbeat')).toHaveLength(beats);
  });

  test('breaking out of the iteration aborts the run', async () => {
    const { tool } = slowTool({ a: 10_000 });
    const client = new FakeClient([{ tools: [{ id: 'tu_a', name: 'slow', input: { id: 'a' } }] }, 'hang']);
    const run = runToolLoop(client, { sessionId, content: 'go', tools: [tool] });
    const iterating = (async () => {
      for await (const _ of run) break;
    })();
    await vi.advanceTimersByTimeAsync(10_000);
    await iterating;
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
    expect(run.signal.aborted).toBe(true);
  });

  test('a Parley client fits ToolLoopClient', () => {
    expectTypeOf<Parley>().toExtend<ToolLoopClient>();
  });
});
