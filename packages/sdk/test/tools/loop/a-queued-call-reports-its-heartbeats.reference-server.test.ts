// The tool loop beats a call that waits its turn (over `concurrency`): a beat of it that fails
// without losing it is reported to `onHeartbeatError`, and one that succeeds to `onHeartbeat`, as
// for a running call; a failure is not dropped because the call had not started yet. Against the
// reference server (its `x-parley-fault` header fails the beats) on a ManualClock, the SDK on fake
// timers.
import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { APIError, defineTool, Parley, type PendingTool } from '@parley/sdk';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

afterEach(() => {
  vi.useRealTimers();
});

describe('a queued call reports its heartbeats', () => {
  test('a beat of a call waiting its turn that fails (503) reaches onHeartbeatError with that call; one that succeeds reaches onHeartbeat', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const clock = new ManualClock(Date.now());
    const server = createReferenceServer({ clock });
    /** The second call's id, from the send's reply; its beats fail while `failing`. */
    const second: { id?: string | undefined; failing: boolean } = { failing: true };
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const path = new URL(request.url).pathname;
        if (second.failing && second.id && path.endsWith(`/${second.id}/heartbeat`))
          request.headers.set('x-parley-fault', 'status=503');
        const response = await server.fetch(request);
        if (/^\/v1\/messages\/[^/]+$/.test(path) && request.method === 'POST') {
          const reply = (await response.clone().json()) as { pendingTools: PendingTool[] };
          second.id ??= reply.pendingTools.find((p) => p.name === 'second')?.requestId;
        }
        return response;
      },
    });
    const first = defineTool({
      name: 'first',
      description: 'Takes 12 s',
      input: z.object({}),
      run: () =>
        new Promise<{ done: boolean }>((resolve) => setTimeout(() => resolve({ done: true }), 12_000)),
    });
    const secondTool = defineTool({
      name: 'second',
      description: 'Quick',
      input: z.object({}),
      run: () => ({ done: true }),
    });
    const { sessionId } = await client.sessions.create({ tools: [first, secondTool] });
    const errors: Array<{ error: unknown; requestId: string }> = [];
    const beats: Array<{ beats: number; requestId: string; state: string }> = [];
    const run = client.runToolLoop({
      sessionId,
      content: '/tool first {}\n/tool second {}\n/then Done.',
      tools: [first, secondTool],
      concurrency: 1,
      onHeartbeatError: (error, call) => errors.push({ error, requestId: call.requestId }),
      onHeartbeat: (count, call) =>
        beats.push({ beats: count, requestId: call.requestId, state: call.state }),
    });
    // The loop's body loads with its first run (real time): its send made the calls.
    await vi.waitFor(() => expect(second.id).toBeDefined());
    const advance = async (ms: number) => {
      for (let done = 0; done < ms; done += 250) {
        await clock.advance(250);
        await vi.advanceTimersByTimeAsync(250);
      }
    };
    await advance(8_000); // the second call waits: its beats so far failed
    second.failing = false;
    await advance(5_000); // one of its beats succeeds while it still waits
    const result = await run;
    expect(result.steps[0]?.toolResults.map((r) => r.status)).toEqual(['COMPLETE', 'COMPLETE']);
    const secondErrors = errors.filter((e) => e.requestId === second.id);
    expect(secondErrors.length).toBeGreaterThan(0);
    expect(secondErrors.every((e) => e.error instanceof APIError && e.error.status === 503)).toBe(true);
    expect(beats.filter((b) => b.requestId === second.id)).toContainEqual({
      beats: 1,
      requestId: second.id,
      state: 'PROCESSING',
    });
  });
});
