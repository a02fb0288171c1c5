// A re-attached call keeps its own deadline, measured on the server's clock: the server's clock is
// an hour ahead of this machine's, the crashed call has 1 s of its 10 s lifetime left when a new
// process claims it, and its approval wait and its time limit end within that second. The SDK's
// timers and Date are fake; the server's clock is a ManualClock.
import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { defineTool, Parley, ToolApprovalTimeoutError, ToolTimeoutError } from '@parley/sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

const HOUR = 3_600_000;
const LIFETIME_MS = 10_000;
const LEASE_MS = 750;

// The loop loads its parts on first use (dynamic imports take real time, which fake time would race):
// one re-attaching run with approval, on real timers, loads them all before the tests.
beforeAll(async () => {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  const { sessionId } = await client.sessions.create();
  await client.messages.send(sessionId, { content: '/tool book {"to":"x"}\n/then Done.' });
  const book = defineTool({
    name: 'book',
    description: 'Books a trip',
    input: z.object({ to: z.string() }),
    needsApproval: true,
    timeoutMs: 1_000,
    run: () => ({ booked: true }),
  });
  await client.runToolLoop({ sessionId, tools: [book], reattach: true, approve: () => ({ approved: true }) });
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A crashed turn whose one call has 1 s left on the server's clock (an hour ahead of this one). */
async function crashedCallWithOneSecondLeft() {
  const clock = new ManualClock(Date.now() + HOUR);
  const server = createReferenceServer({
    clock,
    heartbeatTimeoutMs: LEASE_MS,
    toolCallTimeoutMs: LIFETIME_MS,
  });
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  const { sessionId } = await client.sessions.create();
  await client.messages.send(sessionId, { content: '/tool book {"to":"x"}\n/then Done.' });
  await clock.advance(LIFETIME_MS - 1_000);
  return { client, sessionId };
}

/** Runs the re-attaching loop, moving fake time in 50 ms steps; returns when (fake ms) the call ended. */
async function reattachAndTime(
  client: Parley,
  sessionId: string,
  tool: NonNullable<Parameters<Parley['runToolLoop']>[0]['tools']>[number],
  approve?: () => Promise<never>,
) {
  const started = Date.now();
  let endedAt: number | undefined;
  const run = client.runToolLoop({
    sessionId,
    tools: [tool],
    reattach: true,
    heartbeatTimeoutMs: LEASE_MS,
    ...(approve && { approve }),
  });
  const result = run.then((r) => {
    endedAt ??= Date.now() - started;
    return r;
  });
  while (endedAt === undefined && Date.now() - started < 15_000) {
    await vi.advanceTimersByTimeAsync(50);
  }
  const done = await result;
  return { done, endedAt };
}

describe("a re-attached call keeps its own deadline, on the server's clock", () => {
  test("its approval wait ends before the call's deadlineAt, not a whole new lifetime later", async () => {
    const { client, sessionId } = await crashedCallWithOneSecondLeft();
    const book = defineTool({
      name: 'book',
      description: 'Books a trip',
      input: z.object({ to: z.string() }),
      needsApproval: true,
      run: () => ({ booked: true }),
    });
    const { done, endedAt } = await reattachAndTime(
      client,
      sessionId,
      book,
      () => new Promise<never>(() => {}),
    );
    const [claimed] = done.reattached?.toolResults ?? [];
    expect(claimed?.status).toBe('ERROR');
    expect(claimed?.status === 'ERROR' && claimed.cause instanceof ToolApprovalTimeoutError).toBe(true);
    // 1 s left, less one beat interval (250 ms) for the report to land.
    expect(endedAt).toBeLessThan(1_000);
  });

  test("its time limit ends before the call's deadlineAt, even when the tool's limit is longer", async () => {
    const { client, sessionId } = await crashedCallWithOneSecondLeft();
    const book = defineTool({
      name: 'book',
      description: 'Books a trip',
      input: z.object({ to: z.string() }),
      timeoutMs: 60_000,
      run: (_input, ctx) =>
        new Promise<never>((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        ),
    });
    const { done, endedAt } = await reattachAndTime(client, sessionId, book);
    const [claimed] = done.reattached?.toolResults ?? [];
    expect(claimed?.status).toBe('ERROR');
    expect(claimed?.status === 'ERROR' && claimed.cause instanceof ToolTimeoutError).toBe(true);
    expect(endedAt).toBeLessThan(1_000);
  });
});
