// runToolLoop's hooks against the reference server: middleware around every tool run, input
// repair, and tools that run alone in their step. No test waits for real time.
import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley, type ToolMiddleware } from '@parley/sdk';
import { ToolExecutionError, ToolTimeoutError } from '@parley/sdk/tools';
import { workerHandler } from '@parley/sdk/worker';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { fixture, SOURCE_EXEC_ARGV } from '../worker/helpers.js';

function setup() {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
  });
  return { server, client };
}

function weatherTool(log: string[], extra: Partial<Parameters<typeof defineTool>[0]> = {}) {
  return defineTool({
    name: 'get_weather',
    description: 'Weather of a city',
    input: z.object({ city: z.string() }),
    output: z.object({ tempC: z.number() }),
    run: ({ city }) => {
      log.push(`run ${city}`);
      return { tempC: city === 'Paris' ? 18 : 21 };
    },
    ...extra,
  });
}

const ask = (city: string) => `/tool get_weather {"city":"${city}"}\n/then Done.`;

describe('tool middleware', () => {
  test("middleware runs around every call in order: the loop's list outside, the tool's own inside", async () => {
    const { client } = setup();
    const log: string[] = [];
    const around =
      (name: string): ToolMiddleware =>
      async (call, next) => {
        log.push(`${name} in ${call.ctx.name}`);
        const output = await next();
        log.push(`${name} out`);
        return output;
      };
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather of a city',
      input: z.object({ city: z.string() }),
      middleware: [around('tool-1'), around('tool-2')],
      run: ({ city }) => {
        log.push(`run ${city}`);
        return { tempC: 18 };
      },
    });
    const { sessionId } = await client.sessions.create({ tools: [tool] });
    const result = await client.runToolLoop({
      sessionId,
      content: ask('Paris'),
      middleware: [around('loop-1'), around('loop-2')],
    });
    expect(result.status).toBe('done');
    expect(log).toEqual([
      'loop-1 in get_weather',
      'loop-2 in get_weather',
      'tool-1 in get_weather',
      'tool-2 in get_weather',
      'run Paris',
      'tool-2 out',
      'tool-1 out',
      'loop-2 out',
      'loop-1 out',
    ]);
  });

  test("a middleware that returns without calling next short-circuits with that result, checked by the tool's output schema", async () => {
    const { client } = setup();
    const log: string[] = [];
    const cache: Record<string, { tempC: number }> = { Paris: { tempC: 5 } };
    const tool = weatherTool(log);
    const cached: ToolMiddleware<{ city: string }, { tempC: number }> = (call, next) =>
      cache[call.input.city] ?? next();
    const wrong: ToolMiddleware = () => ({ tempC: 'warm' });
    const { sessionId } = await client.sessions.create({ tools: [tool] });
    const first = await client.runToolLoop({
      sessionId,
      content: `${ask('Paris')}\n${ask('Oslo')}`.replace('\n/then Done.', ''),
      tools: [{ ...tool, middleware: [cached] }],
    });
    expect(first.steps[0]?.toolResults.map((r) => r.output)).toEqual([{ tempC: 5 }, { tempC: 21 }]);
    expect(log).toEqual(['run Oslo']);

    const second = await client.runToolLoop({ sessionId, content: ask('Rome'), middleware: [wrong] });
    const [call] = second.steps[0]?.toolResults ?? [];
    expect(call?.status).toBe('ERROR');
    expect(call?.error).toContain('returned output that does not match its output schema');
    expect(log).toEqual(['run Oslo']);
  });

  test.each([
    ['an Error', () => Promise.reject(new Error('not allowed for this user')), 'not allowed for this user'],
    ['a string', () => Promise.reject('quota spent'), 'quota spent'],
    ['undefined', () => Promise.reject(undefined), 'Tool "get_weather" failed without a message'],
  ])(
    'a middleware that throws %s is one more thrown callback: the call is reported ERROR with the thrown text and the loop goes on',
    async (_kind, fail, message) => {
      const { client } = setup();
      const log: string[] = [];
      const tool = weatherTool(log);
      const { sessionId } = await client.sessions.create({ tools: [tool] });
      const result = await client.runToolLoop({ sessionId, content: ask('Paris'), middleware: [fail] });
      expect(result.status).toBe('done');
      expect(result.steps[0]?.toolResults[0]).toMatchObject({ status: 'ERROR', error: message });
      expect(log).toEqual([]);
      const requestId = result.steps[0]?.toolResults[0]?.requestId ?? '';
      expect((await client.tools.get(sessionId, requestId)).state).toBe('ERROR');
    },
  );

  test('approval runs inside the middleware: a denial reaches next() as a rejection with the words the model reads, and a retrying middleware asks only once', async () => {
    const { client } = setup();
    const log: string[] = [];
    const tool = weatherTool(log, { needsApproval: true });
    let asked = 0;
    const seen: string[] = [];
    const retryOnce: ToolMiddleware = async (_call, next) => {
      try {
        return await next();
      } catch (error) {
        seen.push(error instanceof Error ? error.message : String(error));
        return next();
      }
    };
    const { sessionId } = await client.sessions.create({ tools: [tool] });
    const result = await client.runToolLoop({
      sessionId,
      content: ask('Paris'),
      middleware: [retryOnce],
      approve: () => {
        asked++;
        return { approved: false, reason: 'not today' };
      },
    });
    const [call] = result.steps[0]?.toolResults ?? [];
    expect(call).toMatchObject({
      status: 'ERROR',
      error: 'Tool "get_weather" was not run: approval was denied: not today',
    });
    expect(seen).toEqual(['Tool "get_weather" was not run: approval was denied: not today']);
    expect(asked).toBe(1);
    expect(log).toEqual([]);
  });

  test('the time limit runs inside the middleware: next() rejects with a ToolExecutionError (TIMED_OUT) caused by the ToolTimeoutError, which becomes the call’s ERROR', async () => {
    const { client } = setup();
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather of a city',
      input: z.object({ city: z.string() }),
      timeoutMs: 20,
      run: (_input, { signal }) =>
        new Promise<{ tempC: number }>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
    });
    const observe: ToolMiddleware = async (_call, next) => {
      try {
        return await next();
      } catch (error) {
        seen.push(error);
        throw error;
      }
    };
    const { sessionId } = await client.sessions.create({ tools: [tool] });
    const result = await client.runToolLoop({ sessionId, content: ask('Paris'), middleware: [observe] });
    expect(seen[0]).toBeInstanceOf(ToolExecutionError);
    expect(seen[0]).toMatchObject({ reason: 'TIMED_OUT', toolName: 'get_weather' });
    expect((seen[0] as ToolExecutionError).cause).toBeInstanceOf(ToolTimeoutError);
    expect(result.steps[0]?.toolResults[0]).toMatchObject({
      status: 'ERROR',
      error: 'Tool "get_weather" ran past its 20 ms time limit and was stopped',
    });
  });

  test("next(input) hands the handler another input, typed by the tool's schema", async () => {
    const { client } = setup();
    const log: string[] = [];
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather of a city',
      input: z.object({ city: z.string() }),
      output: z.object({ tempC: z.number() }),
      middleware: [
        (call, next) => {
          expectTypeOf(call.input).toEqualTypeOf<{ city: string }>();
          expectTypeOf(next).returns.resolves.toEqualTypeOf<{ tempC: number }>();
          return next({ city: call.input.city.toUpperCase() });
        },
      ],
      run: ({ city }) => {
        log.push(city);
        return { tempC: 1 };
      },
    });
    const { sessionId } = await client.sessions.create({ tools: [tool] });
    await client.runToolLoop({ sessionId, content: ask('paris') });
    expect(log).toEqual(['PARIS']);
  });

  test("a workerHandler tool's middleware runs on the host thread, around the worker", async () => {
    const { client } = setup();
    const threads: string[] = [];
    const tool = defineTool({
      name: 'crunch',
      description: 'Work in a worker',
      input: z.object({ mode: z.string() }),
      run: workerHandler(fixture('cpu-bound-worker.mjs'), { execArgv: SOURCE_EXEC_ARGV }),
    });
    const { isMainThread } = await import('node:worker_threads');
    const { sessionId } = await client.sessions.create({ tools: [tool] });
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool crunch {"mode":"context"}',
      middleware: [
        async (_call, next) => {
          threads.push(isMainThread ? 'host' : 'worker');
          const output = await next();
          return { ...output, wrapped: true };
        },
      ],
    });
    expect(threads).toEqual(['host']);
    expect(result.steps[0]?.toolResults[0]).toMatchObject({
      status: 'COMPLETE',
      output: { name: 'crunch', wrapped: true },
    });
  });
});

describe('input repair', () => {
  const tool = (log: string[]) => weatherTool(log);

  test('a repaired input runs the tool, and the step records the repair', async () => {
    const { client } = setup();
    const log: string[] = [];
    const { sessionId } = await client.sessions.create({ tools: [tool(log)] });
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"town":"Paris"}\n/then Done.',
      repairToolInput: ({ input, issues }) => {
        expect(issues[0]?.path?.[0]).toBe('city');
        return typeof input.town === 'string' ? { city: input.town } : undefined;
      },
    });
    const [step] = result.steps;
    expect(step?.toolResults[0]).toMatchObject({ status: 'COMPLETE', output: { tempC: 18 } });
    expect(log).toEqual(['run Paris']);
    expect(step?.repairs).toEqual([
      {
        requestId: step?.toolResults[0]?.requestId,
        name: 'get_weather',
        input: { town: 'Paris' },
        repairedInput: { city: 'Paris' },
      },
    ]);
  });

  test('a repairer that returns nothing leaves the model the schema error, as without one', async () => {
    const { client } = setup();
    const log: string[] = [];
    const { sessionId } = await client.sessions.create({ tools: [tool(log)] });
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"town":"Paris"}\n/then Done.',
      repairToolInput: () => undefined,
    });
    const [step] = result.steps;
    expect(step?.toolResults[0]?.status).toBe('ERROR');
    expect(step?.toolResults[0]?.error).toMatch(
      /^Invalid input for tool "get_weather":\n✖ .*\n {2}→ at city$/,
    );
    expect(step?.repairs).toBeUndefined();
    expect(log).toEqual([]);
  });

  test('a repaired input that still fails the schema, or a repairer that throws, is reported ERROR and the loop goes on', async () => {
    const { client } = setup();
    const log: string[] = [];
    const { sessionId } = await client.sessions.create({ tools: [tool(log)] });
    const stillWrong = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"town":"Paris"}\n/then Done.',
      repairToolInput: () => ({ city: 7 }),
    });
    expect(stillWrong.status).toBe('done');
    expect(stillWrong.steps[0]?.toolResults[0]?.error).toMatch(
      /^Invalid input for tool "get_weather" \(also after repairToolInput\):\n✖ /,
    );
    const throws = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"town":"Paris"}\n/then Done.',
      repairToolInput: () => {
        throw 'repair service down';
      },
    });
    expect(throws.status).toBe('done');
    expect(throws.steps[0]?.toolResults[0]).toMatchObject({
      status: 'ERROR',
      error: 'Invalid input for tool "get_weather", and repairToolInput failed: repair service down',
      cause: 'repair service down',
    });
    expect(log).toEqual([]);
  });

  test('a repairer that is not a function rejects the run with a TypeError, before anything is sent', async () => {
    const { client, server } = setup();
    const { sessionId } = await client.sessions.create({ tools: [tool([])] });
    // @ts-expect-error: a plain-JavaScript mistake
    await expect(client.runToolLoop({ sessionId, content: 'hi', repairToolInput: 'fix' })).rejects.toThrow(
      new TypeError('runToolLoop(): repairToolInput must be a function, got "fix" (a string)'),
    );
    expect(server.journal.entries({ method: 'POST', path: '/v1/messages/*' })).toHaveLength(0);
  });
});

describe('exclusive tools', () => {
  test('an exclusive tool runs after the other calls of its step have settled, with nothing beside it, whatever concurrency says', async () => {
    const { client } = setup();
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const track = async (label: string) => {
      running++;
      most = Math.max(most, running);
      events.push(`start ${label} (${running} running)`);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      events.push(`end ${label}`);
    };
    const read = defineTool({
      name: 'read_file',
      description: 'Reads a file',
      input: z.object({ path: z.string() }),
      run: async ({ path }) => {
        await track(path);
        return { ok: true };
      },
    });
    const migrate = defineTool({
      name: 'migrate',
      description: 'Migrates the database',
      input: z.object({ to: z.number() }),
      exclusive: true,
      run: async ({ to }) => {
        await track(`migrate ${to}`);
        return { ok: true };
      },
    });
    const { sessionId } = await client.sessions.create({ tools: [read, migrate] });
    const result = await client.runToolLoop({
      sessionId,
      concurrency: 4,
      content: [
        '/tool migrate {"to":1}',
        '/tool read_file {"path":"a"}',
        '/tool migrate {"to":2}',
        '/tool read_file {"path":"b"}',
        '/then Done.',
      ].join('\n'),
    });
    expect(result.steps[0]?.toolResults.map((r) => [r.name, r.status])).toEqual([
      ['migrate', 'COMPLETE'],
      ['read_file', 'COMPLETE'],
      ['migrate', 'COMPLETE'],
      ['read_file', 'COMPLETE'],
    ]);
    expect(events).toEqual([
      'start a (1 running)',
      'start b (2 running)',
      'end a',
      'end b',
      'start migrate 1 (1 running)',
      'end migrate 1',
      'start migrate 2 (1 running)',
      'end migrate 2',
    ]);
    expect(most).toBe(2);
  });

  test('exclusive must be a boolean', () => {
    expect(() =>
      defineTool({
        name: 'migrate',
        description: 'Migrates',
        input: z.object({}),
        // @ts-expect-error: a plain-JavaScript mistake
        exclusive: 'yes',
        run: () => ({}),
      }),
    ).toThrow(
      /^defineTool\("migrate"\): invalid tool definition:\n✖ exclusive must be a boolean\n {2}→ at exclusive$/,
    );
  });
});
