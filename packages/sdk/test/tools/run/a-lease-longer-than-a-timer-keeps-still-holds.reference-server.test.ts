// A server may name a heartbeat timeout (its lease) longer than a timer can keep (2^31 - 1 ms,
// about 24.8 days): the call is still held and reported, never lost at once because a timer
// built from that lease fires at once. Against the reference server on a ManualClock, the SDK on
// fake timers.
import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { defineTool, Parley } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

afterEach(() => {
  vi.useRealTimers();
});

const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1_000;

describe('a lease longer than a timer keeps still holds the call', () => {
  test('a server heartbeatTimeoutMs of 30 days: a call whose handler takes 20 s is beaten, COMPLETE and reported', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const clock = new ManualClock(Date.now());
    const server = createReferenceServer({ clock, heartbeatTimeoutMs: THIRTY_DAYS_MS });
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: (input, init) => server.fetch(new Request(input, init)),
    });
    const slow = defineTool({
      name: 'slow',
      description: 'Takes 20 s',
      input: z.object({}),
      run: () =>
        new Promise<{ done: boolean }>((resolve) => setTimeout(() => resolve({ done: true }), 20_000)),
    });
    const { sessionId } = await client.sessions.create({ tools: [slow] });
    const reply = await client.messages.send(sessionId, { content: '/tool slow {}' });
    expect(reply.heartbeatTimeoutMs).toBe(THIRTY_DAYS_MS);
    const pending = reply.pendingTools[0];
    if (!pending) throw new Error('no pending call');
    const beatErrors: unknown[] = [];
    const running = runTool(client, {
      sessionId,
      pending,
      tool: slow,
      heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
      onHeartbeatError: (error) => beatErrors.push(error),
    });
    for (let done = 0; done < 21_000; done += 250) {
      await clock.advance(250);
      await vi.advanceTimersByTimeAsync(250);
    }
    const result = await running;
    expect(beatErrors.map(String)).toEqual([]);
    expect(result).toMatchObject({ status: 'COMPLETE', output: { done: true } });
    expect(await client.tools.get(sessionId, pending.requestId)).toMatchObject({ state: 'COMPLETE' });
    expect(vi.getTimerCount()).toBe(0);
  });
});
