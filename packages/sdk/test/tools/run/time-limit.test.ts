// A handler's time limit on the main thread (`defineTool({ timeoutMs })`, runTool's
// `toolTimeoutMs`), on a fake transport and fake time.
import { defineTool, type ToolContext, ToolTimeoutError, ToolWorkerTimeoutError } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { FakeTransport } from '../helpers/fake-transport.js';

const sessionId = 'sess_1';
const pending = { requestId: 'tooluse_1', name: 'slow', input: { ms: 1_000 } };

/** A handler that works `ms` of fake time, and records how its signal ended. */
function slowTool(options: { timeoutMs?: number; ignoreSignal?: boolean } = {}) {
  const seen: { reason?: unknown; finished: boolean } = { finished: false };
  const tool = defineTool({
    name: 'slow',
    description: 'Works for a while',
    input: z.object({ ms: z.number() }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    run: ({ ms }, { signal }: ToolContext) =>
      new Promise<{ done: boolean }>((resolve, reject) => {
        const timer = setTimeout(() => {
          seen.finished = true;
          resolve({ done: true });
        }, ms);
        signal.addEventListener('abort', () => {
          seen.reason = signal.reason;
          if (options.ignoreSignal) return;
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  });
  return { tool, seen };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a time limit per tool on the main thread', () => {
  test("at the tool's timeoutMs its signal aborts with a ToolTimeoutError and the model gets the worker limit's words", async () => {
    const transport = new FakeTransport();
    const { tool, seen } = slowTool({ timeoutMs: 800 });
    const running = runTool(transport, { sessionId, pending, tool });
    await vi.advanceTimersByTimeAsync(799);
    expect(seen.reason).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    const result = await running;
    const message = 'Tool "slow" ran past its 800 ms time limit and was stopped';
    expect(result).toMatchObject({ status: 'ERROR', error: message });
    expect(
      (seen.reason instanceof ToolTimeoutError || seen.reason instanceof ToolWorkerTimeoutError) &&
        seen.reason.timeoutMs,
    ).toBe(800);
    expect(transport.of('fail')).toMatchObject([{ message, at: 800 }]);
  });

  test('a handler that ignores its signal still ends at the limit: the call is not held open', async () => {
    const transport = new FakeTransport();
    const { tool, seen } = slowTool({ timeoutMs: 300, ignoreSignal: true });
    const running = runTool(transport, { sessionId, pending, tool });
    await vi.advanceTimersByTimeAsync(300);
    expect(await running).toMatchObject({ status: 'ERROR' });
    expect(transport.of('fail')).toHaveLength(1);
    expect(seen.finished).toBe(false);
  });

  test("toolTimeoutMs is the default for a tool without one; the tool's own timeoutMs wins", async () => {
    const transport = new FakeTransport();
    const plain = slowTool();
    const running = runTool(transport, { sessionId, pending, tool: plain.tool, toolTimeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    expect(await running).toMatchObject({
      error: 'Tool "slow" ran past its 500 ms time limit and was stopped',
    });

    const own = slowTool({ timeoutMs: 2_000 });
    const second = runTool(transport, { sessionId, pending, tool: own.tool, toolTimeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await second).toMatchObject({ status: 'COMPLETE', output: { done: true } });
  });

  test('a handler done within its limit completes, and the limit leaves no timer behind', async () => {
    const transport = new FakeTransport();
    const { tool } = slowTool({ timeoutMs: 5_000 });
    const running = runTool(transport, { sessionId, pending, tool });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await running).toMatchObject({ status: 'COMPLETE' });
    expect(vi.getTimerCount()).toBe(0);
  });

  test('the limit counts from when the handler starts, after the approval', async () => {
    const transport = new FakeTransport();
    const tool = defineTool({ ...slowTool({ timeoutMs: 800 }).tool, needsApproval: true });
    let approveNow: () => void = () => {};
    const running = runTool(transport, {
      sessionId,
      pending,
      tool,
      approve: () =>
        new Promise((resolve) => {
          approveNow = () => resolve({ approved: true });
        }),
    });
    await vi.advanceTimersByTimeAsync(5_000); // a person thinks for longer than the limit
    approveNow();
    await vi.advanceTimersByTimeAsync(1_000); // the handler needs 1 s: past its 800 ms
    expect(await running).toMatchObject({ status: 'ERROR', approval: { outcome: 'approved' } });
    expect(transport.of('fail')[0]?.at).toBe(5_800);
  });

  test('a limit no timer can keep is refused, by defineTool and by runTool', async () => {
    expect(() => slowTool({ timeoutMs: 0 })).toThrow(
      /✖ timeoutMs must be a positive number of milliseconds up to 2147483647, got 0\n {2}→ at timeoutMs/,
    );
    const { tool } = slowTool();
    await expect(
      runTool(new FakeTransport(), { sessionId, pending, tool, toolTimeoutMs: 2 ** 31 }),
    ).rejects.toThrow(
      'runTool: the time limit of tool "slow" must be a positive number of milliseconds up to 2147483647, got 2147483648',
    );
  });
});
