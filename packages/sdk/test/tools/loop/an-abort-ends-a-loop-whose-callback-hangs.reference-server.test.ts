// The loop awaits `onStep` and an async `stopWhen`; one that never settles must not outlive an
// abort: `abort()` (or the caller's signal) ends the run at once with an APIUserAbortError.
// Against the reference server in process; fake timers only to let the abort's effects run.
import { createReferenceServer } from '@parley/reference-server';
import { APIUserAbortError, defineTool, Parley, type RunToolLoopOptions } from '@parley/sdk';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

afterEach(() => {
  vi.useRealTimers();
});

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks something up',
  input: z.object({}),
  run: () => ({ found: true }),
});

const never = () => new Promise<never>(() => {});

describe('an abort ends a loop whose awaited callback hangs', () => {
  test.each<[string, Partial<RunToolLoopOptions>]>([
    ['onStep', { onStep: never }],
    ['stopWhen', { stopWhen: never }],
  ])('%s that never settles: abort() rejects the run with an APIUserAbortError', async (_name, hangs) => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: (input, init) => server.fetch(new Request(input, init)),
    });
    const { sessionId } = await client.sessions.create({ tools: [lookup] });
    let entered!: () => void;
    const reached = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const run = client.runToolLoop({
      sessionId,
      content: '/tool lookup {}\n/then Found.',
      tools: [lookup],
      ...Object.fromEntries(
        Object.entries(hangs).map(([key, callback]) => [
          key,
          () => {
            entered();
            return (callback as () => Promise<never>)();
          },
        ]),
      ),
    });
    await reached;
    vi.useFakeTimers();
    let outcome: unknown = 'still running';
    run.then(
      () => {
        outcome = 'resolved';
      },
      (error: unknown) => {
        outcome = error;
      },
    );
    run.abort();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(outcome).toBeInstanceOf(APIUserAbortError);
  });
});
