// Once a call has ended (the run aborted, the call lost), nothing of it runs any more: a callback
// that answers late (repairToolInput, needsApproval, a middleware's next()) does not start the
// handler, and no timer of the call (its deadline, its time limit) is left behind. Against the
// reference server on a ManualClock, the SDK on fake timers.
import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { APIUserAbortError, defineTool, type ObjectSchema, Parley, type ToolMiddleware } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A `pay` call the reference server made, and a tool that records what it paid. */
async function payCall(input: string) {
  const server = createReferenceServer({ clock: new ManualClock(Date.now()) });
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (request, init) => server.fetch(new Request(request, init)),
  });
  const paid: number[] = [];
  const tool = (parts: Partial<Parameters<typeof defineTool>[0]> = {}) =>
    defineTool({
      name: 'pay',
      description: 'Pays an amount',
      input: z.object({ amount: z.number() }),
      run: ({ amount }: { amount: number }) => {
        paid.push(amount);
        return { paid: amount };
      },
      ...parts,
    } as Parameters<typeof defineTool>[0]);
  const { sessionId } = await client.sessions.create({ tools: [tool()] });
  const reply = await client.messages.send(sessionId, { content: `/tool pay ${input}` });
  const pending = reply.pendingTools[0];
  if (!pending) throw new Error('no pending call');
  return { client, sessionId, pending, tool, paid };
}

/** Resolves with `value` after `ms` (fake time). */
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/**
 * Aborts the run half a second in (while its callback still thinks), checks it rejected with the
 * abort, then lets the callback answer (two more seconds of fake time).
 */
async function abortMidway(running: Promise<unknown>, abort: AbortController): Promise<void> {
  const settled = expect(running).rejects.toBeInstanceOf(APIUserAbortError);
  await vi.advanceTimersByTimeAsync(500);
  abort.abort();
  await settled;
  await vi.advanceTimersByTimeAsync(2_000);
}

describe('a call that ended runs nothing more', () => {
  test('repairToolInput answering after the run was aborted does not start the handler', async () => {
    const { client, sessionId, pending, tool, paid } = await payCall('{"amount":"ten"}');
    const abort = new AbortController();
    const running = runTool(client, {
      sessionId,
      pending,
      tool: tool(),
      signal: abort.signal,
      repairToolInput: () => later(1_000, { amount: 10 }),
    });
    await abortMidway(running, abort);
    expect(paid).toEqual([]);
  });

  test('an input schema that answers "invalid" after the run was aborted: repairToolInput is not asked', async () => {
    const { client, sessionId, pending, tool, paid } = await payCall('{"amount":"ten"}');
    const abort = new AbortController();
    const asked: unknown[] = [];
    const json = () => ({ type: 'object', properties: { amount: { type: 'number' } } });
    // A Standard Schema whose check takes a second (a lookup), and fails.
    const slowSchema: ObjectSchema = {
      '~standard': {
        version: 1,
        vendor: 'hand-written',
        validate: () => later(1_000, { issues: [{ message: 'amount: expected a number' }] }),
        jsonSchema: { input: json, output: json },
      },
    };
    const running = runTool(client, {
      sessionId,
      pending,
      tool: tool({ input: slowSchema }),
      signal: abort.signal,
      repairToolInput: ({ input }) => {
        asked.push(input);
        return { amount: 10 };
      },
    });
    await abortMidway(running, abort);
    expect(asked).toEqual([]);
    expect(paid).toEqual([]);
  });

  test('a needsApproval predicate answering "no approval needed" after the run was aborted does not start the handler', async () => {
    const { client, sessionId, pending, tool, paid } = await payCall('{"amount":10}');
    const abort = new AbortController();
    const running = runTool(client, {
      sessionId,
      pending,
      tool: tool({ needsApproval: () => later(1_000, false) }),
      signal: abort.signal,
      approve: () => ({ approved: true }),
    });
    await abortMidway(running, abort);
    expect(paid).toEqual([]);
  });

  test('a needsApproval predicate answering "approval needed" after the run was aborted: approve is not asked', async () => {
    const { client, sessionId, pending, tool, paid } = await payCall('{"amount":10}');
    const abort = new AbortController();
    const asked: unknown[] = [];
    const running = runTool(client, {
      sessionId,
      pending,
      tool: tool({ needsApproval: () => later(1_000, true) }),
      signal: abort.signal,
      approve: (request) => {
        asked.push(request.input);
        return { approved: true };
      },
    });
    await abortMidway(running, abort);
    expect(asked).toEqual([]);
    expect(paid).toEqual([]);
  });

  test("a middleware's next() called after the run was aborted rejects and does not start the handler", async () => {
    const { client, sessionId, pending, tool, paid } = await payCall('{"amount":10}');
    const abort = new AbortController();
    let late: Promise<unknown> | undefined;
    const middleware: ToolMiddleware = async (_call, next) => {
      await later(1_000, undefined);
      late = next();
      return late;
    };
    const running = runTool(client, {
      sessionId,
      pending,
      tool: tool(),
      signal: abort.signal,
      middleware: [middleware],
    });
    await abortMidway(running, abort);
    await expect(late).rejects.toBeDefined();
    expect(paid).toEqual([]);
  });

  test('a handler that ignores its signal: once the run was aborted, no timer of the call (its deadline, its time limit) is left behind', async () => {
    const { client, sessionId, pending, tool } = await payCall('{"amount":10}');
    const abort = new AbortController();
    const running = runTool(client, {
      sessionId,
      pending: { ...pending, createdAt: 0, deadlineAt: 600_000 },
      tool: tool({ run: () => new Promise(() => {}), timeoutMs: 300_000 }),
      signal: abort.signal,
    });
    const settled = expect(running).rejects.toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(500);
    abort.abort();
    await settled;
    expect(vi.getTimerCount()).toBe(0);
  });
});
