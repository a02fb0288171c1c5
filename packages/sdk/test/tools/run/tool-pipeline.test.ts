// The pipeline a call runs through (deadline, input, output, middleware, approval, time limit,
// handler), on a fake transport and fake time: approval covers what runs, each run of the handler
// gets a live signal and its own limit, and a callback that throws, rejects or hangs still ends the
// call with a reported ERROR.
import {
  defineTool,
  ParleyError,
  ToolApprovalTimeoutError,
  type ToolMiddleware,
  ToolTimeoutError,
} from '@parley/sdk';
import { runTool, ToolExecutionError } from '@parley/sdk/tools';
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
        'Tool "pay" was not run: a middleware passed next() another input than the one approval was asked about',
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

/** A call whose deadline is one minute after it was made; with a 3 s lease, beats are 1 s apart. */
const timed = { ...pending, createdAt: 5_000, deadlineAt: 65_000 };
/** When the pipeline ends unfinished: one heartbeat interval before the deadline. */
const END_MS = 60_000 - 1_000;

describe('one pipeline, one order', () => {
  test('the input is checked (and repaired) first, then the middleware runs, then the approval is asked about the input the middleware passed, then the limited handler runs', async () => {
    const log: string[] = [];
    const tool = defineTool({
      name: 'pay',
      description: 'Pays an amount',
      input: z.object({ amount: z.number() }),
      output: z.object({ paid: z.number() }),
      needsApproval: true,
      timeoutMs: 1_000,
      middleware: [
        async (call, next) => {
          log.push(`tool middleware ${JSON.stringify(call.input)}`);
          return next({ amount: call.input.amount + 1 });
        },
      ],
      run: ({ amount }, { signal }) => {
        log.push(`handler ${amount}, signal ${signal.aborted ? 'aborted' : 'live'}`);
        return { paid: amount };
      },
    });
    const result = await runTool(new FakeTransport(), {
      sessionId,
      pending: { ...timed, input: { amount: '10' } },
      tool,
      heartbeatTimeoutMs: 3_000,
      repairToolInput: ({ input }) => {
        log.push(`repair ${JSON.stringify(input)}`);
        return { amount: Number(input.amount) };
      },
      middleware: [
        async (call, next) => {
          log.push(`loop middleware ${JSON.stringify(call.input)}`);
          const output = await next();
          log.push(`loop middleware got ${JSON.stringify(output)}`);
          return output;
        },
      ],
      approve: ({ input }) => {
        log.push(`approve ${JSON.stringify(input)}`);
        return { approved: true };
      },
    });
    expect(log).toEqual([
      'repair {"amount":"10"}',
      'loop middleware {"amount":10}',
      'tool middleware {"amount":10}',
      'approve {"amount":11}',
      'handler 11, signal live',
      'loop middleware got {"paid":11}',
    ]);
    expect(result).toMatchObject({
      status: 'COMPLETE',
      output: { paid: 11 },
      approval: { input: { amount: 11 }, outcome: 'approved' },
      repair: { input: { amount: '10' }, repairedInput: { amount: 10 } },
    });
  });
});

describe('approval: one decision per call', () => {
  test('next() called twice at once with the same input asks approve once, and both run', async () => {
    const { tool, ran } = payTool();
    let asked = 0;
    const twice: ToolMiddleware = async (_call, next) => {
      const [a, b] = await Promise.all([next(), next()]);
      return { paid: a.paid + b.paid };
    };
    const result = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      middleware: [twice],
      approve: async () => {
        asked++;
        return { approved: true };
      },
    });
    expect(asked).toBe(1);
    expect(ran).toEqual([10, 10]);
    expect(result).toMatchObject({ status: 'COMPLETE', output: { paid: 20 } });
  });

  test('an input that needed no approval does not hold the call: a retry with an input needsApproval picks is asked about', async () => {
    const ran: number[] = [];
    const tool = defineTool({
      name: 'pay',
      description: 'Pays an amount',
      input: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > 100,
      run: ({ amount }) => {
        ran.push(amount);
        if (ran.length === 1) throw new Error('too little');
        return { paid: amount };
      },
    });
    const asked: unknown[] = [];
    const result = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      middleware: [
        async (call, next) => {
          try {
            return await next();
          } catch {
            return next({ amount: call.input.amount * 100 });
          }
        },
      ],
      approve: ({ input }) => {
        asked.push(input);
        return { approved: false, reason: 'too much' };
      },
    });
    expect(ran).toEqual([10]);
    expect(asked).toEqual([{ amount: 1_000 }]);
    expect(result).toMatchObject({
      status: 'ERROR',
      error: 'Tool "pay" was not run: approval was denied: too much',
      approval: { input: { amount: 1_000 }, outcome: 'denied' },
    });
  });
});

describe('what next() rejects with: a ToolExecutionError', () => {
  const string = 'quota spent';
  test.each([
    ['the handler throws an Error', 'HANDLER_FAILED', 'card declined', 'Error'],
    ['the handler throws a string', 'HANDLER_FAILED', string, 'string'],
    ['approval is denied', 'APPROVAL_DENIED', 'Tool "pay" was not run: approval was denied: no', 'answer'],
    ['an inner middleware throws', 'MIDDLEWARE_FAILED', 'not allowed', 'Error'],
  ] as const)(
    '%s: reason %s, the words the model reads, what failed as its cause; rethrown unchanged it is reported as without the middleware',
    async (what, reason, message, causeKind) => {
      const tool = defineTool({
        name: 'pay',
        description: 'Pays an amount',
        input: z.object({ amount: z.number() }),
        needsApproval: true,
        run: () => {
          if (what === 'the handler throws an Error') throw new Error('card declined');
          if (what === 'the handler throws a string') throw string;
          return { paid: 1 };
        },
      });
      const seen: unknown[] = [];
      const observe: ToolMiddleware = async (_call, next) => {
        try {
          return await next();
        } catch (error) {
          seen.push(error);
          throw error;
        }
      };
      const inner: ToolMiddleware = async () => {
        throw new Error('not allowed');
      };
      const transport = new FakeTransport();
      const result = await runTool(transport, {
        sessionId,
        pending,
        tool,
        middleware: what === 'an inner middleware throws' ? [observe, inner] : [observe],
        approve: () =>
          what === 'approval is denied' ? { approved: false, reason: 'no' } : { approved: true },
      });
      expect(seen).toHaveLength(1);
      const error = seen[0];
      expect(error).toBeInstanceOf(ToolExecutionError);
      expect(error).toBeInstanceOf(ParleyError);
      expect(error).toMatchObject({
        name: 'ToolExecutionError',
        reason,
        message,
        toolName: 'pay',
        requestId: 'tooluse_1',
      });
      const cause = (error as ToolExecutionError).cause;
      if (causeKind === 'Error') expect(cause).toBeInstanceOf(Error);
      else if (causeKind === 'string') expect(cause).toBe(string);
      else expect(cause).toEqual({ approved: false, reason: 'no' });
      expect(result).toMatchObject({ status: 'ERROR', error: message, cause });
      expect(transport.of('fail').map((c) => c.message)).toEqual([message]);
    },
  );
});

type Callback = 'approve' | 'needsApproval' | 'middleware' | 'repairToolInput' | 'handler';
const CALLBACKS: readonly Callback[] = [
  'approve',
  'needsApproval',
  'middleware',
  'repairToolInput',
  'handler',
];

/** A runTool call in which `callback` is `fails`; the others work. */
function callWith(callback: Callback, fails: () => never | Promise<never>) {
  const ran: number[] = [];
  const tool = defineTool({
    name: 'pay',
    description: 'Pays an amount',
    input: z.object({ amount: z.number() }),
    needsApproval: callback === 'needsApproval' ? fails : true,
    run: (({ amount }: { amount: number }) => {
      ran.push(amount);
      return callback === 'handler' ? fails() : { paid: amount };
    }) as (input: { amount: number }) => { paid: number },
  });
  const transport = new FakeTransport();
  const signals: AbortSignal[] = [];
  const running = runTool(transport, {
    sessionId,
    pending: { ...timed, input: callback === 'repairToolInput' ? { amount: 'ten' } : { amount: 10 } },
    tool,
    heartbeatTimeoutMs: 3_000,
    approve: callback === 'approve' ? fails : () => ({ approved: true }),
    ...(callback === 'middleware'
      ? {
          middleware: [
            (call: { ctx: { signal: AbortSignal } }) => {
              signals.push(call.ctx.signal);
              return fails();
            },
          ],
        }
      : {}),
    ...(callback === 'repairToolInput' ? { repairToolInput: fails } : {}),
  });
  return { running, transport, ran, signals };
}

const FAILED_WORDS: Record<Callback, (text: string) => string> = {
  approve: (text) => `Tool "pay" was not run: asking for approval failed: ${text}`,
  needsApproval: (text) => `Tool "pay" was not run: its needsApproval check failed: ${text}`,
  middleware: (text) => text,
  repairToolInput: (text) => `Invalid input for tool "pay", and repairToolInput failed: ${text}`,
  handler: (text) => text,
};

describe('every callback may throw, reject or hang: the call still ends with a reported ERROR, nothing left open', () => {
  test.each(
    CALLBACKS.flatMap((callback) =>
      (['an Error', 'a string', 'a rejection'] as const).map((kind) => [callback, kind] as const),
    ),
  )('%s that throws %s', async (callback, kind) => {
    const thrown = kind === 'a string' ? 'boom' : new Error('boom');
    const fails = (): never | Promise<never> => {
      if (kind === 'a rejection') return Promise.reject(thrown);
      throw thrown;
    };
    const { running, transport, ran } = callWith(callback, fails);
    const result = await running;
    expect(result).toMatchObject({ status: 'ERROR', error: FAILED_WORDS[callback]('boom'), cause: thrown });
    expect(transport.of('fail')).toHaveLength(1);
    expect(ran).toEqual(callback === 'handler' ? [10] : []);
    expect(vi.getTimerCount()).toBe(0);
  });

  test.each(CALLBACKS)(
    '%s that hangs: the call ends one heartbeat interval before its deadline',
    async (callback) => {
      const { running, transport, ran, signals } = callWith(callback, () => new Promise<never>(() => {}));
      await vi.advanceTimersByTimeAsync(END_MS - 1);
      expect(transport.of('fail')).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      const result = await running;
      const message =
        callback === 'approve'
          ? `Tool "pay" was not run: no one approved the call before its deadline (waited ${END_MS} ms for an answer)`
          : `Tool "pay" ran past its ${END_MS} ms time limit and was stopped`;
      expect(result).toMatchObject({ status: 'ERROR', error: message });
      expect(result.cause).toBeInstanceOf(
        callback === 'approve' ? ToolApprovalTimeoutError : ToolTimeoutError,
      );
      if (callback === 'approve')
        expect(result.approval).toMatchObject({ outcome: 'timed_out', reason: message });
      // The callback's signal told it to stop.
      if (callback === 'middleware') expect(signals[0]?.reason).toBe(result.cause);
      expect(transport.of('fail')).toMatchObject([{ message, at: END_MS }]);
      expect(ran).toEqual(callback === 'handler' ? [10] : []);
      expect(vi.getTimerCount()).toBe(0);
    },
  );
});
