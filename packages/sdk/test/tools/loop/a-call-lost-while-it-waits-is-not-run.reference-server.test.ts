// The tool loop holds (beats) a call that waits its turn (over `concurrency`): when that call is
// lost while it waits (here: settled by someone else, so its beat gets a 409), it is LOST and its
// handler never runs. Against the reference server on a ManualClock, the SDK on fake timers.
import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { defineTool, Parley, ToolCallLostError } from '@parley/sdk';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

afterEach(() => {
  vi.useRealTimers();
});

describe('a call lost while it waits its turn is not run', () => {
  test('a queued call whose beat gets a 409 while it waits is LOST, and its handler never runs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const clock = new ManualClock(Date.now());
    const server = createReferenceServer({ clock });
    let leaseToken: string | undefined;
    let secondId: string | undefined;
    let secondLost!: () => void;
    const lost = new Promise<void>((resolve) => {
      secondLost = resolve;
    });
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: async (input, init) => {
        const request = new Request(input, init);
        leaseToken ??= request.headers.get('parley-lease') ?? undefined;
        const response = await server.fetch(request);
        const path = new URL(request.url).pathname;
        if (/^\/v1\/messages\/[^/]+$/.test(path) && request.method === 'POST') {
          const reply = (await response.clone().json()) as {
            pendingTools: Array<{ requestId: string; name: string }>;
          };
          secondId ??= reply.pendingTools.find((p) => p.name === 'second')?.requestId;
        }
        if (secondId && path.endsWith(`/${secondId}/heartbeat`) && response.status === 409) secondLost();
        return response;
      },
    });
    const ran: string[] = [];
    const first = defineTool({
      name: 'first',
      description: 'Runs until the second call was lost',
      input: z.object({}),
      run: async () => {
        ran.push('first');
        // Someone else settles the waiting call (with the run's token, as a second process of it would).
        await client.tools.respond(
          sessionId,
          secondId ?? '',
          { done: 'elsewhere' },
          {
            headers: { 'parley-lease': leaseToken ?? '' },
          },
        );
        await lost;
        return { done: true };
      },
    });
    const second = defineTool({
      name: 'second',
      description: 'Must not run once lost',
      input: z.object({}),
      run: () => {
        ran.push('second');
        return { done: true };
      },
    });
    const { sessionId } = await client.sessions.create({ tools: [first, second] });
    const run = client.runToolLoop({
      sessionId,
      content: '/tool first {}\n/tool second {}\n/then Done.',
      tools: [first, second],
      concurrency: 1,
    });
    // The loop's body loads with its first run (real time): its send made the calls.
    await vi.waitFor(() => expect(secondId).toBeDefined());
    for (let done = 0; done < 20_000; done += 250) {
      await clock.advance(250);
      await vi.advanceTimersByTimeAsync(250);
    }
    const result = await run;
    const results = result.steps[0]?.toolResults ?? [];
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['first', 'COMPLETE'],
      ['second', 'LOST'],
    ]);
    expect(results[1]?.cause).toBeInstanceOf(ToolCallLostError);
    expect(ran).toEqual(['first']);
  });
});
