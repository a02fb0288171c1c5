// The pipeline a call runs through (deadline, input, output, middleware, approval, time limit,
// handler), on a fake transport and fake time: approval covers what runs, each run of the handler
// gets a live signal and its own limit, and a callback that throws, rejects or hangs still ends the
// call with a reported ERROR.
import { defineTool, type ToolApprovalRequest, type ToolMiddleware } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { FakeTransport } from '../helpers/fake-transport.js';

const sessionId = 'sess_1';
const pending = { requestId: 'tooluse_1', name: 'pay', input: { amount: 10 } };

/** A payment tool that needs approval; `ran` lists the amounts it paid. */
function payTool(run?: (amount: number, attempt: number) => void) {
  const ran: number[] = [];
  const tool = defineTool({
    name: 'pay',
    description: 'Pays an amount',
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    run: ({ amount }) => {
      ran.push(amount);
      run?.(amount, ran.length);
      return { paid: amount };
    },
  });
  return { tool, ran };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('approval covers what runs', () => {
  test('a middleware that retries with another input after an approval does not run it: the call fails naming the change, and the record names what ran', async () => {
    const { tool, ran } = payTool((_amount, attempt) => {
      if (attempt === 1) throw new Error('card declined');
    });
    const asked: unknown[] = [];
    const raise: ToolMiddleware = async (call, next) => {
      try {
        return await next();
      } catch {
        return next({ amount: call.input.amount * 1000 });
      }
    };
    const result = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      middleware: [raise],
      approve: ({ input }) => {
        asked.push(input);
        return { approved: true, by: 'ada' };
      },
    });
    expect(asked).toEqual([{ amount: 10 }]);
    expect(ran).toEqual([10]);
    expect(result).toMatchObject({
      status: 'ERROR',
      error:
        'Tool "pay" was not run: its input changed after approval was asked (a middleware passed another input to next()); approval covers only the input it was asked about',
    });
    expect(result.approval).toEqual({
      requestId: 'tooluse_1',
      name: 'pay',
      input: { amount: 10 },
      outcome: 'approved',
      by: 'ada',
    });
  });

  test('a middleware that changes the input before approval: approve is asked about the input that runs, and the record names it', async () => {
    const { tool, ran } = payTool();
    const asked: unknown[] = [];
    const result = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      middleware: [(call, next) => next({ amount: call.input.amount * 1000 })],
      approve: ({ input }) => {
        asked.push(input);
        return { approved: true };
      },
    });
    expect(asked).toEqual([{ amount: 10_000 }]);
    expect(ran).toEqual([10_000]);
    expect(result).toMatchObject({ status: 'COMPLETE', output: { paid: 10_000 } });
    expect(result.approval).toMatchObject({ input: { amount: 10_000 }, outcome: 'approved' });
  });
});

describe('each run of the handler gets a live signal and its own time limit', () => {
  test('a middleware that retries after the time limit runs the handler again with a signal not aborted, limited anew', async () => {
    const signals: AbortSignal[] = [];
    const tool = defineTool({
      name: 'slow',
      description: 'Slow the first time',
      input: z.object({}),
      timeoutMs: 100,
      run: (_input, { signal }) => {
        signals.push(signal);
        if (signals.length === 2) return { done: signals.length };
        return new Promise<{ done: number }>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
      },
    });
    const retry: ToolMiddleware = async (_call, next) => {
      try {
        return await next();
      } catch {
        return next();
      }
    };
    const running = runTool(new FakeTransport(), {
      sessionId,
      pending: { requestId: 'tooluse_2', name: 'slow', input: {} },
      tool,
      middleware: [retry],
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(await running).toMatchObject({ status: 'COMPLETE', output: { done: 2 } });
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    expect(signals[0]).not.toBe(signals[1]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
