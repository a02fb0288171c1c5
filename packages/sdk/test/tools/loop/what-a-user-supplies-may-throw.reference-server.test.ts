// Issue 31, point 1: every callback a user gives the SDK may throw an Error, throw something else
// (`'boom'`, `undefined`) or reject, and the call still ends: the call is reported ERROR with the
// thrown text and the loop goes on, or the loop rejects with a ParleyError whose `cause` is the
// thrown value, or (a logger, a tracer) nothing changes. Never an abort error without an abort,
// never a call left open on the server, never an unhandled rejection. Against the reference
// server, handed to the client as its `fetch`.
import { createReferenceServer } from '@parley/reference-server';
import {
  type AnyTool,
  APIError,
  APIUserAbortError,
  defineTool,
  type ObjectSchema,
  Parley,
  ParleyError,
  type ParleyOptions,
  type RunToolLoopOptions,
  type SpanLike,
  type TracerLike,
} from '@parley/sdk';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { sendsWithoutLease } from '../../helpers/sends-without-lease.js';

type Kind = 'Error' | 'string' | 'undefined' | 'rejects';
const KINDS: readonly Kind[] = ['Error', 'string', 'undefined', 'rejects'];

/** Something that fails the `kind` way: throws (an Error, a string, undefined) or returns a rejected promise. */
function failure(kind: Kind) {
  const thrown =
    kind === 'Error' || kind === 'rejects' ? new Error('boom') : kind === 'string' ? 'boom' : undefined;
  const fail = (): never | Promise<never> => {
    if (kind === 'rejects') return Promise.reject(thrown);
    throw thrown;
  };
  /** For a callback whose type wants a value back (only the synchronous kinds are run with it). */
  const throws = (): never => {
    throw thrown;
  };
  return { thrown, fail, throws };
}

type Outcome = 'call ERROR, loop goes on' | 'loop rejects with cause' | 'nothing changes';

interface Setup {
  /** Replaces the weather tool. */
  tool?: AnyTool;
  loop?: Partial<RunToolLoopOptions>;
  client?: Partial<ParleyOptions>;
  /** Queues a fault before the loop starts. */
  fault?: (server: ReturnType<typeof createReferenceServer>) => void;
  stream?: boolean;
  /**
   * The server shows the send's call PENDING (no send pickup): its first beat goes at once, before
   * the quick handler ends (with the pickup it would end before a beat was due).
   */
  beatAtOnce?: boolean;
}

interface Callback {
  name: string;
  outcome: Outcome;
  /** Failure kinds that fit the callback's type (a logger's methods are synchronous). */
  kinds?: readonly Kind[];
  setup(fail: () => never | Promise<never>, throws: () => never): Setup;
}

const SYNC: readonly Kind[] = ['Error', 'string', 'undefined'];
// zod runs a refine or transform synchronously first, and drops the promise one returns before it
// parses again asynchronously: a rejecting one would be zod's unhandled rejection, not the SDK's.
// A Standard Schema's `validate` stands for the schemas that reject.
const ZOD: readonly Kind[] = SYNC;

const input = z.object({ city: z.string() });
const run = ({ city }: { city: string }) => ({ city, temperatureC: 18 });
const weather = (parts: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({ name: 'get_weather', description: 'Weather', input, run, ...parts } as Parameters<
    typeof defineTool
  >[0]);

/** A Standard Schema (with Standard JSON Schema) whose `validate` is `validate`. */
function standardSchema(validate: () => never | Promise<never>): ObjectSchema {
  const json = () => ({ type: 'object', properties: { city: { type: 'string' } } });
  return {
    '~standard': { version: 1, vendor: 'hand-written', validate, jsonSchema: { input: json, output: json } },
  };
}

/** A span whose every method fails. */
function failingSpan(fail: () => unknown): SpanLike {
  return {
    setAttribute: fail,
    setAttributes: fail,
    addEvent: fail,
    setStatus: fail,
    recordException: fail,
    end: fail,
    isRecording: () => fail() as boolean,
  };
}

const CALLBACKS: readonly Callback[] = [
  {
    name: 'input schema: a zod refine',
    outcome: 'call ERROR, loop goes on',
    kinds: ZOD,
    setup: (fail) => ({ tool: weather({ input: input.refine(() => fail()) }) }),
  },
  {
    name: 'input schema: a zod transform',
    outcome: 'call ERROR, loop goes on',
    kinds: ZOD,
    setup: (fail) => ({ tool: weather({ input: input.transform(() => fail()) }) }),
  },
  {
    name: "input schema: a Standard Schema's validate",
    outcome: 'call ERROR, loop goes on',
    setup: (fail) => ({ tool: weather({ input: standardSchema(fail) }) }),
  },
  {
    name: 'output schema: a zod refine',
    outcome: 'call ERROR, loop goes on',
    kinds: ZOD,
    setup: (fail) => ({ tool: weather({ output: z.object({ city: z.string() }).refine(() => fail()) }) }),
  },
  {
    name: "output schema: a Standard Schema's validate",
    outcome: 'call ERROR, loop goes on',
    setup: (fail) => ({ tool: weather({ output: standardSchema(fail) }) }),
  },
  {
    name: 'run',
    outcome: 'call ERROR, loop goes on',
    setup: (fail) => ({ tool: weather({ run: fail }) }),
  },
  {
    name: 'needsApproval',
    outcome: 'call ERROR, loop goes on',
    setup: (fail) => ({
      tool: weather({ needsApproval: fail }),
      loop: { approve: () => ({ approved: true }) },
    }),
  },
  {
    name: 'approve',
    outcome: 'call ERROR, loop goes on',
    setup: (fail) => ({ tool: weather({ needsApproval: true }), loop: { approve: fail } }),
  },
  {
    name: 'onToolStart',
    outcome: 'loop rejects with cause',
    setup: (fail) => ({ loop: { onToolStart: fail } }),
  },
  {
    name: 'onHeartbeat',
    outcome: 'loop rejects with cause',
    setup: (fail) => ({ loop: { onHeartbeat: fail }, beatAtOnce: true }),
  },
  {
    name: 'onHeartbeatError',
    outcome: 'loop rejects with cause',
    setup: (fail) => ({
      loop: { onHeartbeatError: fail },
      beatAtOnce: true,
      fault: (server) =>
        server.faults.next({ match: { path: '/v1/tools/request/*/*/heartbeat' }, status: 503 }),
    }),
  },
  {
    name: 'onText',
    outcome: 'loop rejects with cause',
    setup: (fail) => ({ loop: { onText: fail }, stream: true }),
  },
  { name: 'onStep', outcome: 'loop rejects with cause', setup: (fail) => ({ loop: { onStep: fail } }) },
  {
    name: 'stopWhen',
    outcome: 'loop rejects with cause',
    setup: (fail) => ({ loop: { stopWhen: fail } }),
  },
  {
    name: 'recover.onAttempt',
    outcome: 'loop rejects with cause',
    setup: (fail) => ({
      loop: { recover: { backoff: () => 0, onAttempt: fail } },
      fault: (server) =>
        server.faults.next({
          match: { method: 'POST', path: /^\/v1\/messages\/[^/]+(\/stream)?$/ },
          status: 503,
        }),
    }),
  },
  {
    name: 'recover.backoff',
    outcome: 'loop rejects with cause',
    kinds: SYNC,
    setup: (_fail, throws) => ({
      loop: { recover: { backoff: throws } },
      fault: (server) =>
        server.faults.next({
          match: { method: 'POST', path: /^\/v1\/messages\/[^/]+(\/stream)?$/ },
          status: 503,
        }),
    }),
  },
  { name: 'getToken', outcome: 'loop rejects with cause', setup: (fail) => ({ client: { getToken: fail } }) },
  {
    name: 'random',
    outcome: 'nothing changes',
    kinds: SYNC,
    setup: (_fail, throws) => {
      // The jitter is drawn for a beat's due time: the handler waits until it was.
      let drawn: () => void = () => {};
      const jitterDrawn = new Promise<void>((resolve) => {
        drawn = resolve;
      });
      return {
        tool: weather({ run: (city: { city: string }) => jitterDrawn.then(() => run(city)) }),
        loop: {
          random: () => {
            drawn();
            return throws();
          },
        },
      };
    },
  },
  {
    name: "a logger's methods",
    outcome: 'nothing changes',
    setup: (fail) => ({
      client: { logger: { debug: fail, info: fail, warn: fail, error: fail }, logLevel: 'debug' },
    }),
  },
  {
    name: "a tracer's startSpan",
    outcome: 'nothing changes',
    kinds: SYNC,
    setup: (_fail, throws) => ({ client: { tracer: { startSpan: throws } satisfies TracerLike } }),
  },
  {
    name: "a tracer's spans",
    outcome: 'nothing changes',
    kinds: SYNC,
    setup: (fail) => ({ client: { tracer: { startSpan: () => failingSpan(fail) } } }),
  },
];

const CASES = CALLBACKS.flatMap((callback) =>
  (callback.kinds ?? KINDS).flatMap((kind) =>
    [false, true].map((stream) => ({ callback, kind, stream }) as const),
  ),
);

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

async function runCase({ callback, kind, stream }: (typeof CASES)[number]) {
  unhandled.length = 0;
  const { thrown, fail, throws } = failure(kind);
  const setup = callback.setup(fail, throws);
  const server = createReferenceServer();
  const options = { baseUrl: 'http://parley.test', token: 'parley-demo-token', fetch: server.fetch };
  const plain = new Parley(options);
  const fetch = setup.beatAtOnce ? sendsWithoutLease(server.fetch) : server.fetch;
  const client = new Parley({ ...options, fetch, ...setup.client });
  const tool = setup.tool ?? weather();
  const { sessionId } = await plain.sessions.create({ tools: [tool] });
  setup.fault?.(server);
  const settled = await client
    .runToolLoop({
      sessionId,
      tools: [tool],
      content: '/tool get_weather {"city":"Paris"}\n/then Done.',
      stream: setup.stream ?? stream,
      ...setup.loop,
    })
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  // Whatever came of it, an abort error is never the answer: nothing aborted.
  if ('error' in settled) expect(settled.error instanceof APIUserAbortError).toBe(false);
  switch (callback.outcome) {
    case 'call ERROR, loop goes on': {
      expect(settled).toHaveProperty('result');
      const { result } = settled as { result: Awaited<ReturnType<Parley['runToolLoop']>> };
      expect(result.status).toBe('done');
      const [call] = result.steps[0]?.toolResults ?? [];
      expect(call?.status).toBe('ERROR');
      if (kind !== 'undefined') expect(call?.error).toContain('boom');
      expect(call?.cause).toBe(thrown);
      break;
    }
    case 'loop rejects with cause': {
      expect(settled).toHaveProperty('error');
      const { error } = settled as { error: Error };
      expect(error instanceof ParleyError).toBe(true);
      expect(error.message).toContain(callback.name);
      expect(error.cause).toBe(thrown);
      break;
    }
    case 'nothing changes': {
      expect(settled).toHaveProperty('result');
      const { result } = settled as { result: Awaited<ReturnType<Parley['runToolLoop']>> };
      expect([result.status, result.finalText]).toEqual(['done', 'Done.']);
      expect(result.steps[0]?.toolResults[0]?.status).toBe('COMPLETE');
      break;
    }
  }
  // Every tool call of the conversation is settled on the server: the conversation resumes (a loop
  // that rejected after its step left the resume to the caller) and takes a new turn.
  const exported = await plain.messages.export(sessionId);
  const callIds = exported.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
  for (const requestId of callIds) {
    expect(['COMPLETE', 'ERROR']).toContain((await plain.tools.get(sessionId, requestId)).state);
  }
  const resumed = await plain.messages.send(sessionId, {}).then(
    () => undefined,
    (error: unknown) => (error instanceof APIError ? error.code : error),
  );
  expect(resumed).not.toBe('tool_calls_open');
  await expect(plain.messages.send(sessionId, { content: '/say Still here.' })).resolves.toMatchObject({
    stopReason: 'end_turn',
  });
  // A rejection left unhandled is reported after the turn it happened in.
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
}

describe('what a user supplies may throw, and the call still ends', () => {
  test('every callback x every failure kind: ERROR or a rejection with the thrown value as cause, no abort error, no call left open, no unhandled rejection', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CASES), (each) => runCase(each)),
      { examples: CASES.map((each) => [each]), numRuns: CASES.length + 10 },
    );
  });
});
