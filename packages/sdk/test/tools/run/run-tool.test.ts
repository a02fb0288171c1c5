import { getEventListeners } from 'node:events';
import { defineTool, Parley, ToolCallLostError, type ToolContext } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { createMockFetch } from '../../helpers/mock-fetch.js';
import {
  apiError,
  connectionError,
  deferred,
  FakeTransport,
  hangUntilAborted,
} from '../helpers/fake-transport.js';

const sessionId = 'sess_1';
const pending = { requestId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } };

function weatherTool(run: (input: { city: string }, ctx: ToolContext) => unknown) {
  return defineTool({
    name: 'get_weather',
    description: 'Weather',
    input: z.object({ city: z.string() }),
    output: z.object({ temperature: z.number() }),
    run: run as (input: { city: string }, ctx: ToolContext) => { temperature: number },
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function serverError(status: number): Response {
  return new Response(JSON.stringify({ error: { code: 'internal_error', message: 'boom' } }), { status });
}

/**
 * A client over a mock fetch that answers heartbeats with 200 and the terminal report (`response`:
 * the tool response; `failure`: a heartbeat with state ERROR) with `failures` first, then 200.
 * `reports` records each report request: when (fake clock) and its body.
 */
function reportServer(kind: 'response' | 'failure', failures: Array<Response | Error>) {
  const mock = createMockFetch();
  const reports: Array<{ at: number; body: string }> = [];
  const reply = async (request: Request): Promise<Response> => {
    const body = await request.clone().text();
    const isReport =
      kind === 'response' ? request.url.includes('/v1/tools/response/') : body.includes('"ERROR"');
    if (!isReport) return new Response(null, { status: 200 });
    reports.push({ at: Date.now(), body });
    const next = failures.shift();
    if (next instanceof Error) throw next;
    return next ?? new Response(null, { status: 200 });
  };
  mock.enqueue(...Array.from({ length: 20 }, () => reply));
  const client = new Parley({ baseUrl: 'http://parley.test', token: 'tok', fetch: mock.fetch });
  return { client, reports };
}

/** Runs the fake clock `ms` forward and returns how `running` settled (its error, if it failed). */
async function settle<T>(running: Promise<T>, ms: number): Promise<T | unknown> {
  const settled = running.catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('runTool', () => {
  test('heartbeats at once, runs the handler with parsed input, then submits the output', async () => {
    const transport = new FakeTransport();
    const run = vi.fn((input: { city: string }, ctx: ToolContext) => {
      expect(transport.of('heartbeat')).toHaveLength(1);
      expect(ctx).toMatchObject({
        sessionId,
        requestId: 'tooluse_1',
        name: 'get_weather',
        rawInput: pending.input,
      });
      return { temperature: input.city.length };
    });
    const result = await runTool({ tools: transport }, { sessionId, pending, tool: weatherTool(run) });
    expect(result).toEqual({
      requestId: 'tooluse_1',
      name: 'get_weather',
      status: 'COMPLETE',
      output: { temperature: 5 },
    });
    expect(transport.of('respond')[0]).toMatchObject({ requestId: 'tooluse_1', output: { temperature: 5 } });
    expect(transport.log).toEqual(['heartbeat:start', 'heartbeat:end', 'respond']);
  });

  test("listens to its caller's signal once for the whole call (heartbeat, handler, race, report) and lets go at its end", async () => {
    // A loop's step signal serves every call of the step: three listeners a call made Node warn at four calls.
    const transport = new FakeTransport();
    const caller = new AbortController();
    const release = deferred();
    const tool = weatherTool(async () => {
      await release.promise;
      return { temperature: 1 };
    });
    const running = runTool({ tools: transport }, { sessionId, pending, tool, signal: caller.signal });
    await vi.advanceTimersByTimeAsync(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    release.resolve();
    expect((await running).status).toBe('COMPLETE');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  test('keeps heartbeating while a slow handler runs, independently of it', async () => {
    const transport = new FakeTransport();
    const tool = weatherTool(async () => {
      await new Promise((r) => setTimeout(r, 3_500));
      return { temperature: 1 };
    });
    const running = runTool(transport, {
      sessionId,
      pending,
      tool,
      heartbeatTimeoutMs: 3_000,
      random: () => 0,
    });
    await vi.advanceTimersByTimeAsync(3_500);
    await running;
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000, 3_000]);
  });

  test('input that fails the schema is reported as ERROR with the validation message, handler not run', async () => {
    const transport = new FakeTransport();
    const run = vi.fn(() => ({ temperature: 1 }));
    const result = await runTool(transport, {
      sessionId,
      pending: { ...pending, input: { city: 42 } },
      tool: weatherTool(run),
    });
    expect(run).not.toHaveBeenCalled();
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatch(/^Invalid input for tool "get_weather":/);
    expect(result.error).toMatch(/expected string, received number[\s\S]*at city/);
    expect(transport.of('fail')[0]?.message).toBe(result.error);
    expect(transport.of('respond')).toHaveLength(0);
  });

  test('a thrown error becomes ERROR with its message', async () => {
    const transport = new FakeTransport();
    const boom = new Error('City not found: Atlantis');
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool: weatherTool(() => {
        throw boom;
      }),
    });
    expect(result).toMatchObject({ status: 'ERROR', error: 'City not found: Atlantis', cause: boom });
    expect(transport.of('fail')[0]?.message).toBe('City not found: Atlantis');
  });

  test('a thrown error without a message still gives the model something to read', async () => {
    const transport = new FakeTransport();
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool: weatherTool(() => Promise.reject(new Error(''))),
    });
    expect(result.error).toBe('Tool "get_weather" failed without a message');
  });

  test('a schema that throws or rejects is reported as ERROR with the thrown text, not as an abort (executeTool never throws)', async () => {
    const thrower = z.object({ city: z.string() }).refine(() => {
      throw new Error('the refine broke');
    });
    const transport = new FakeTransport();
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool: defineTool({ name: 'get_weather', description: 'Weather', input: thrower, run: () => ({}) }),
    });
    expect(result).toMatchObject({
      status: 'ERROR',
      error: 'Tool "get_weather" could not check its input: its input schema threw: the refine broke',
    });
    expect(transport.of('fail')).toHaveLength(1);
  });

  test('an onHeartbeat that throws does not stop the call: it is reported, then runTool rejects with the thrown value as cause', async () => {
    const transport = new FakeTransport();
    const thrown = new Error('the progress bar broke');
    const running = runTool(transport, {
      sessionId,
      pending,
      tool: weatherTool(() => ({ temperature: 18 })),
      onHeartbeat: () => {
        throw thrown;
      },
    });
    const error = await running.catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ParleyError',
      message: 'runTool: onHeartbeat threw: the progress bar broke',
    });
    expect((error as Error).cause).toBe(thrown);
    expect(transport.of('respond')).toHaveLength(1);
  });

  test('output that does not match the output schema is reported as ERROR naming the issue', async () => {
    const transport = new FakeTransport();
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool: weatherTool(() => ({ temperature: 'warm' })),
    });
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatch(/returned output that does not match its output schema/);
    expect(result.error).toMatch(/expected number, received string[\s\S]*at temperature/);
    expect(transport.of('respond')).toHaveLength(0);
  });

  test('output that is not an object, or uses the reserved "state" field, is reported as ERROR', async () => {
    const transport = new FakeTransport();
    const untyped = (run: () => unknown) =>
      defineTool({
        name: 'x',
        description: 'x',
        input: z.object({}),
        run: run as () => Record<string, unknown>,
      });
    const list = await runTool(transport, { sessionId, pending, tool: untyped(() => [1, 2]) });
    expect(list.error).toBe('Tool "get_weather" returned an array; a tool output must be an object');
    const state = await runTool(transport, { sessionId, pending, tool: untyped(() => ({ state: 'done' })) });
    expect(state.error).toMatch(/"state" field, which the protocol reserves/);
  });

  test('stops the heartbeat and awaits the beat in flight before reporting an error', async () => {
    const beat = deferred();
    const transport = new FakeTransport((call) => (call.kind === 'heartbeat' ? beat.promise : undefined));
    const running = runTool(transport, {
      sessionId,
      pending,
      tool: weatherTool(() => {
        throw new Error('nope');
      }),
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(transport.of('fail')).toHaveLength(0);
    beat.resolve();
    await running;
    expect(transport.log).toEqual(['heartbeat:start', 'heartbeat:end', 'fail']);
  });

  test('stops the heartbeat and awaits the beat in flight before submitting a response', async () => {
    const beat = deferred();
    const transport = new FakeTransport((call) => (call.kind === 'heartbeat' ? beat.promise : undefined));
    const running = runTool(transport, { sessionId, pending, tool: weatherTool(() => ({ temperature: 3 })) });
    await vi.advanceTimersByTimeAsync(100);
    beat.resolve();
    await running;
    expect(transport.log).toEqual(['heartbeat:start', 'heartbeat:end', 'respond']);
  });

  test('a 409 heartbeat aborts the handler with ToolCallLostError ABANDONED and reports nothing', async () => {
    let beats = 0;
    const transport = new FakeTransport((call) =>
      call.kind === 'heartbeat' && ++beats === 2 ? Promise.reject(apiError(409)) : undefined,
    );
    let seen: unknown;
    const tool = weatherTool(
      (_, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            seen = signal.reason;
            reject(signal.reason);
          });
        }),
    );
    const running = runTool(transport, {
      sessionId,
      pending,
      tool,
      heartbeatTimeoutMs: 3_000,
      random: () => 0,
    });
    await vi.advanceTimersByTimeAsync(1_000);
    const result = await running;
    expect(result).toMatchObject({ status: 'LOST', requestId: 'tooluse_1' });
    expect(seen instanceof ToolCallLostError).toBe(true);
    expect(seen).toMatchObject({ reason: 'ABANDONED' });
    expect(result.cause).toBe(seen);
    expect(transport.of('respond')).toHaveLength(0);
    expect(transport.of('fail')).toHaveLength(0);
  });

  test('a 404 heartbeat ends the run as LOST with NOT_FOUND, even if the handler ignores its signal', async () => {
    const transport = new FakeTransport((call) =>
      call.kind === 'heartbeat' ? Promise.reject(apiError(404)) : undefined,
    );
    const tool = weatherTool(() => new Promise(() => {}));
    const result = await runTool(transport, { sessionId, pending, tool });
    expect(result.status).toBe('LOST');
    expect(result.cause).toMatchObject({ name: 'ToolCallLostError', reason: 'NOT_FOUND' });
    expect(transport.calls.map((c) => c.kind)).toEqual(['heartbeat']);
  });

  test('when every beat fails for longer than the server timeout the handler is aborted with TIMED_OUT', async () => {
    const transport = new FakeTransport((call) =>
      call.kind === 'heartbeat' ? Promise.reject(connectionError()) : undefined,
    );
    const ctxSignal: AbortSignal[] = [];
    const tool = weatherTool((_, { signal }) => {
      ctxSignal.push(signal);
      return new Promise(() => {});
    });
    const running = runTool(transport, { sessionId, pending, tool, heartbeatTimeoutMs: 3_000 });
    await vi.advanceTimersByTimeAsync(4_000);
    const result = await running;
    expect(result.status).toBe('LOST');
    expect(ctxSignal[0]?.reason).toMatchObject({ reason: 'TIMED_OUT' });
    expect(transport.of('fail')).toHaveLength(0);
  });

  test('the response is retried through the client on 5xx and network errors, with its backoff', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const server = reportServer('response', [
      serverError(503),
      new TypeError('socket hang up'),
      serverError(500),
    ]);
    const result = await settle(
      runTool(server.client, { sessionId, pending, tool: weatherTool(() => ({ temperature: 1 })) }),
      10_000,
    );
    expect(result).toMatchObject({ status: 'COMPLETE' });
    // Backoff 500, 1000, 2000 ms between attempts (no jitter with random 0).
    expect(server.reports.map((r) => r.at - server.reports[0]!.at)).toEqual([0, 500, 1_500, 3_500]);
    expect(server.reports.every((r) => r.body === '{"response":{"temperature":1,"state":"COMPLETE"}}')).toBe(
      true,
    );
  });

  test('the failure report is retried too', async () => {
    const server = reportServer('failure', [serverError(502)]);
    const result = await settle(
      runTool(server.client, {
        sessionId,
        pending,
        tool: weatherTool(() => {
          throw new Error('x');
        }),
      }),
      1_000,
    );
    expect(result).toMatchObject({ status: 'ERROR' });
    expect(server.reports).toHaveLength(2);
  });

  test('retries are bounded: after 5 attempts a ToolReportError keeps the output and the cause', async () => {
    const server = reportServer(
      'response',
      Array.from({ length: 5 }, () => serverError(503)),
    );
    const settled = settle(
      runTool(server.client, { sessionId, pending, tool: weatherTool(() => ({ temperature: 1 })) }),
      60_000,
    );
    expect(await settled).toMatchObject({
      name: 'ToolReportError',
      requestId: pending.requestId,
      report: { kind: 'complete', output: { temperature: 1 } },
      cause: { name: 'InternalServerError', status: 503 },
    });
    expect(server.reports).toHaveLength(5);
  });

  test('maxReportAttempts is the retry budget the report gives the client (attempts - 1)', async () => {
    const transport = new FakeTransport();
    await runTool(transport, {
      sessionId,
      pending,
      tool: weatherTool(() => ({ temperature: 1 })),
      maxReportAttempts: 3,
    });
    expect(transport.of('respond')[0]?.options).toEqual({ maxRetries: 2 });
  });

  test('a 4xx report (other than 409/404) is not retried; the result is kept in the ToolReportError', async () => {
    const transport = new FakeTransport((call) =>
      call.kind === 'respond' ? Promise.reject(apiError(400)) : undefined,
    );
    await expect(
      runTool(transport, { sessionId, pending, tool: weatherTool(() => ({ temperature: 1 })) }),
    ).rejects.toMatchObject({ name: 'ToolReportError', cause: { name: 'BadRequestError' } });
    expect(transport.of('respond')).toHaveLength(1);
  });

  test('a 409 on the terminal report means someone else settled it first: ALREADY_SETTLED, no throw', async () => {
    const transport = new FakeTransport((call) =>
      call.kind === 'respond' ? Promise.reject(apiError(409)) : undefined,
    );
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool: weatherTool(() => ({ temperature: 1 })),
    });
    expect(result).toMatchObject({ status: 'ALREADY_SETTLED', cause: { status: 409 } });
    expect(transport.of('respond')).toHaveLength(1);
  });

  test("the caller's signal aborts the handler and the heartbeat; the run rejects and reports nothing", async () => {
    const transport = new FakeTransport((call) =>
      call.kind === 'heartbeat' ? hangUntilAborted(call) : undefined,
    );
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tool = weatherTool((_, { signal }) => {
      handlerSignal = signal;
      started();
      return new Promise(() => {});
    });
    const running = runTool(transport, { sessionId, pending, tool, signal: controller.signal });
    await handlerStarted;
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(running).rejects.toMatchObject({ name: 'APIUserAbortError', cause: reason });
    expect(handlerSignal?.aborted).toBe(true);
    expect(handlerSignal?.reason).toBe(reason);
    expect(transport.of('heartbeat')[0]?.options?.signal?.aborted).toBe(true);
    expect(transport.calls.map((c) => c.kind)).toEqual(['heartbeat']);
  });
});
