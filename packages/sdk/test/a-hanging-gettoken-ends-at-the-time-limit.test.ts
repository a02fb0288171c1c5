// `getToken` is the caller's: one that never settles must not hold a request past its time limit
// (`timeoutMs`), nor a tool call's report (the call would never settle). Against the reference
// server in process, on fake timers.
import { createReferenceServer } from '@parley/reference-server';
import { APITimeoutError, APIUserAbortError, defineTool, Parley } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

afterEach(() => {
  vi.useRealTimers();
});

/** A client of an in-process reference server whose `getToken` hangs once `hang` is set. */
function setup(timeoutMs: number, maxRetries = 0) {
  const server = createReferenceServer();
  const state = { hang: false, asked: 0 };
  const client = new Parley({
    baseUrl: 'http://parley.test',
    timeoutMs,
    maxRetries,
    getToken: () => {
      state.asked++;
      return state.hang ? new Promise<string>(() => {}) : 'parley-demo-token';
    },
    fetch: (input, init) => server.fetch(new Request(input, init)),
  });
  return { client, state };
}

/** What `promise` came to so far: 'pending', or its value or error. */
function watch(promise: Promise<unknown>) {
  const seen: { outcome: unknown } = { outcome: 'pending' };
  promise.then(
    (value) => {
      seen.outcome = value;
    },
    (error: unknown) => {
      seen.outcome = error;
    },
  );
  return seen;
}

describe('a getToken that never settles ends at the time limit', () => {
  test('a request rejects with an APITimeoutError at its timeoutMs, and leaves no timer behind', async () => {
    const { client, state } = setup(1_000);
    vi.useFakeTimers();
    state.hang = true;
    const seen = watch(client.sessions.list());
    await vi.advanceTimersByTimeAsync(999);
    expect(seen.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.outcome).toBeInstanceOf(APITimeoutError);
    expect((seen.outcome as Error).message).toMatch(/timed out after 1000 ms/);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('the attempt that timed out in getToken is retried as a timed-out attempt is, getToken asked again', async () => {
    const { client, state } = setup(1_000, 1);
    vi.useFakeTimers();
    state.hang = true;
    const seen = watch(client.sessions.list());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.asked).toBe(2);
    expect(seen.outcome).toBeInstanceOf(APITimeoutError);
  });

  test("the request's own timeoutMs counts, and an abort still wins", async () => {
    const { client, state } = setup(60_000);
    vi.useFakeTimers();
    state.hang = true;
    const timed = watch(client.sessions.list({ timeoutMs: 200 }));
    const abort = new AbortController();
    const aborted = watch(client.sessions.list({ signal: abort.signal }));
    await vi.advanceTimersByTimeAsync(100);
    abort.abort();
    await vi.advanceTimersByTimeAsync(100);
    expect(timed.outcome).toBeInstanceOf(APITimeoutError);
    expect(aborted.outcome).toBeInstanceOf(APIUserAbortError);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("a tool call whose report's getToken hangs still settles: runTool rejects, keeping the result", async () => {
    const { client, state } = setup(1_000);
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes',
      input: z.object({}),
      run: () => {
        state.hang = true; // from the beats and the report on
        return { echoed: true };
      },
    });
    const { sessionId } = await client.sessions.create({ tools: [echo] });
    const reply = await client.messages.send(sessionId, { content: '/tool echo {}' });
    const pending = reply.pendingTools[0];
    if (!pending) throw new Error('no pending call');
    vi.useFakeTimers();
    const seen = watch(runTool(client, { sessionId, pending, tool: echo, maxReportAttempts: 1 }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen.outcome).toMatchObject({ name: 'ToolReportError', report: { kind: 'complete' } });
    expect(vi.getTimerCount()).toBe(0);
  });
});
