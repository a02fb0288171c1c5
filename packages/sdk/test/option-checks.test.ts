import { nearestKey } from '@parley/protocol/option-check';
import { defineTool, jsonSchema, Parley, runToolLoop } from '@parley/sdk';
import { Heartbeat, runTool } from '@parley/sdk/tools';
import { workerHandler } from '@parley/sdk/worker';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARLEY_OPTION_KEYS } from '../src/client.js';
import { REQUEST_OPTION_KEYS } from '../src/core/http-client.js';
import { RECOVER_OPTION_KEYS } from '../src/recovery/recover-options.js';
import { EXPORT_PARAM_KEYS, SEND_OPTION_KEYS, STREAM_OPTION_KEYS } from '../src/resources/messages.js';
import { CREATE_SESSION_KEYS } from '../src/resources/sessions.js';
import { DEFINE_TOOL_OPTION_KEYS } from '../src/tools/define/define-tool.js';
import { RUN_TOOL_LOOP_OPTION_KEYS } from '../src/tools/loop/tool-loop-options.js';
import { HEARTBEAT_OPTION_KEYS } from '../src/tools/run/heartbeat.js';
import { RUN_TOOL_OPTION_KEYS } from '../src/tools/run/run-tool.js';
import { WORKER_HANDLER_OPTION_KEYS } from '../src/tools/worker/worker-handler-options.js';
import { FakeTransport } from './tools/helpers/fake-transport.js';

// No request leaves: a mistake in the options is refused before anything is sent.
const offline = async (): Promise<Response> => {
  throw new Error('no request is sent in these tests');
};
const client = new Parley({ baseUrl: 'http://parley.test', token: 't', fetch: offline, maxRetries: 0 });
const tool = defineTool({
  name: 'get_weather',
  description: 'Weather',
  input: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
  run: () => ({}),
});
const pending = { requestId: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } };

/** One options object of the SDK: where its mistakes are named, its keys, and a call that takes it. */
interface Entry {
  where: string;
  keys: Readonly<Record<string, unknown>>;
  call(options: Record<string, unknown>): unknown;
  /** Keys the call sets itself after the options (left out of the type test). */
  fixed?: readonly string[];
}

const ENTRIES: Entry[] = [
  {
    where: 'new Parley()',
    keys: PARLEY_OPTION_KEYS,
    call: (o) => new Parley({ baseUrl: 'http://parley.test', token: 't', ...o }),
  },
  { where: 'sessions.create()', keys: REQUEST_OPTION_KEYS, call: (o) => client.sessions.create({}, o) },
  { where: 'sessions.create() body', keys: CREATE_SESSION_KEYS, call: (o) => client.sessions.create(o) },
  { where: 'sessions.list()', keys: REQUEST_OPTION_KEYS, call: (o) => client.sessions.list(o) },
  { where: 'sessions.delete()', keys: REQUEST_OPTION_KEYS, call: (o) => client.sessions.delete('s', o) },
  { where: 'messages.send()', keys: SEND_OPTION_KEYS, call: (o) => client.messages.send('s', {}, o) },
  {
    where: 'messages.send() recover',
    keys: RECOVER_OPTION_KEYS,
    call: (o) => client.messages.send('s', {}, { recover: o }),
  },
  { where: 'messages.stream()', keys: STREAM_OPTION_KEYS, call: (o) => client.messages.stream('s', {}, o) },
  {
    where: 'messages.stream() recover',
    keys: RECOVER_OPTION_KEYS,
    call: (o) => client.messages.stream('s', {}, { recover: o }),
  },
  { where: 'messages.export()', keys: REQUEST_OPTION_KEYS, call: (o) => client.messages.export('s', {}, o) },
  { where: 'messages.export() params', keys: EXPORT_PARAM_KEYS, call: (o) => client.messages.export('s', o) },
  { where: 'messages.rewind()', keys: REQUEST_OPTION_KEYS, call: (o) => client.messages.rewind('s', 0, o) },
  { where: 'tools.heartbeat()', keys: REQUEST_OPTION_KEYS, call: (o) => client.tools.heartbeat('s', 'r', o) },
  { where: 'tools.respond()', keys: REQUEST_OPTION_KEYS, call: (o) => client.tools.respond('s', 'r', {}, o) },
  { where: 'tools.fail()', keys: REQUEST_OPTION_KEYS, call: (o) => client.tools.fail('s', 'r', 'x', o) },
  { where: 'tools.get()', keys: REQUEST_OPTION_KEYS, call: (o) => client.tools.get('s', 'r', o) },
  {
    where: 'runTool()',
    keys: RUN_TOOL_OPTION_KEYS,
    call: (o) => client.tools.run('s', pending, tool, o),
    fixed: ['sessionId', 'pending', 'tool'],
  },
  {
    where: 'runTool()',
    keys: RUN_TOOL_OPTION_KEYS,
    call: (o) => runTool(new FakeTransport(), { sessionId: 's', pending, tool, ...o }),
  },
  {
    where: 'runToolLoop()',
    keys: RUN_TOOL_LOOP_OPTION_KEYS,
    call: (o) => client.runToolLoop({ sessionId: 's', tools: [tool], ...o }),
  },
  {
    where: 'runToolLoop()',
    keys: RUN_TOOL_LOOP_OPTION_KEYS,
    call: (o) => runToolLoop(client, { sessionId: 's', tools: [tool], ...o }),
  },
  {
    where: 'runToolLoop() recover',
    keys: RECOVER_OPTION_KEYS,
    call: (o) => runToolLoop(client, { sessionId: 's', tools: [tool], recover: o }),
  },
  {
    where: 'new Heartbeat()',
    keys: HEARTBEAT_OPTION_KEYS,
    call: (o) => new Heartbeat(new FakeTransport(), { sessionId: 's', requestId: 'r', ...o }),
  },
  {
    where: 'defineTool("get_weather")',
    keys: DEFINE_TOOL_OPTION_KEYS,
    call: (o) => defineTool({ ...tool, ...o }),
  },
  {
    where: 'workerHandler()',
    keys: WORKER_HANDLER_OPTION_KEYS,
    call: (o) => workerHandler(new URL('./worker.js', import.meta.url), o),
  },
];

/** What the call threw or rejected with. */
async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

/** Keys no options object has: names made of letters and digits, as a slip makes them. */
const unknownKey = (keys: Readonly<Record<string, unknown>>) =>
  fc
    .stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,20}$/)
    .filter((key) => !Object.hasOwn(keys, key) && !(key in Object.prototype));

describe('a mistake in an options object is named at once', () => {
  it.each([
    ['new Parley()', () => new Parley({ baseUrl: 'http://x.test', timeout: 5 } as never), 'timeoutMs'],
    [
      'runToolLoop()',
      () => client.runToolLoop({ sessionId: 's', tools: [tool], maxStep: 3 } as never),
      'maxSteps',
    ],
    ['messages.send()', () => client.messages.send('s', {}, { retries: 1 } as never), 'maxRetries'],
  ])(
    'the example of the issue for %s: the unknown key and the nearest known one',
    async (where, call, meant) => {
      const error = await failure(call);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Unknown option "\\w+" for ${where.replace(/[()]/g, '\\$&')}; did you mean "${meant}"\\?$`,
        ),
      );
    },
  );

  it.each(ENTRIES.map((entry) => [entry.where, entry] as const))(
    'an unknown key of %s is a TypeError naming it and the nearest known key',
    async (_where, entry) => {
      await fc.assert(
        fc.asyncProperty(unknownKey(entry.keys), async (key) => {
          const error = await failure(() => entry.call({ [key]: 1 }));
          expect(error).toBeInstanceOf(TypeError);
          const nearest = nearestKey(key, Object.keys(entry.keys));
          expect((error as Error).message).toBe(
            `Unknown option ${JSON.stringify(key)} for ${entry.where}; did you mean ${JSON.stringify(nearest)}?`,
          );
        }),
        { numRuns: 20 },
      );
    },
  );

  it.each(ENTRIES.map((entry) => [entry.where, entry] as const))(
    'every known key of %s is accepted: the check reaches an unknown key given after all of them',
    async (_where, entry) => {
      const known = Object.fromEntries(Object.keys(entry.keys).map((key) => [key, undefined]));
      const error = await failure(() => entry.call({ ...known, notAnOption: 1 }));
      expect((error as Error).message).toMatch(/^Unknown option "notAnOption" for /);
    },
  );

  it.each(ENTRIES.map((entry) => [entry.where, entry] as const))(
    'a value of the wrong type for %s is quoted with its type',
    async (_where, entry) => {
      const typed = Object.entries(entry.keys).filter(
        ([key, type]) => type !== true && !entry.fixed?.includes(key),
      );
      for (const [key, type] of typed) {
        const wrong = type === 'string' ? 5000 : '5000';
        const error = await failure(() => entry.call({ [key]: wrong }));
        expect(error).toBeInstanceOf(TypeError);
        const got = type === 'string' ? '5000 (a number)' : '"5000" (a string)';
        expect((error as Error).message).toBe(
          `${entry.where}: ${key} must be ${type === 'object' || type === 'array' ? 'an' : 'a'} ${type}, got ${got}`,
        );
      }
    },
  );

  it('a timeoutMs given as a string says so: got "5000" (a string), not 5000', () => {
    expect(() => new Parley({ baseUrl: 'http://x.test', timeoutMs: '5000' as never })).toThrow(
      new TypeError('new Parley(): timeoutMs must be a number, got "5000" (a string)'),
    );
  });

  it.each([
    ['messages.send()', (id: unknown) => client.messages.send(id as string, {}), 'sessionId'],
    ['messages.stream()', (id: unknown) => client.messages.stream(id as string, {}), 'sessionId'],
    ['messages.export()', (id: unknown) => client.messages.export(id as string), 'sessionId'],
    ['messages.rewind()', (id: unknown) => client.messages.rewind(id as string, 0), 'sessionId'],
    ['sessions.delete()', (id: unknown) => client.sessions.delete(id as string), 'sessionId'],
    ['tools.heartbeat()', (id: unknown) => client.tools.heartbeat('s', id as string), 'requestId'],
    ['tools.respond()', (id: unknown) => client.tools.respond(id as string, 'r', {}), 'sessionId'],
    ['tools.fail()', (id: unknown) => client.tools.fail('s', id as string, 'x'), 'requestId'],
    ['tools.get()', (id: unknown) => client.tools.get(id as string, 'r'), 'sessionId'],
    [
      'runToolLoop()',
      (id: unknown) => runToolLoop(client, { sessionId: id as string, tools: [tool] }),
      'sessionId',
    ],
  ])(
    'an id parameter of %s given an object names the method and the parameter',
    async (where, call, name) => {
      for (const [id, got] of [
        [{ sessionId: 's' }, 'an object'],
        [42, '42 (a number)'],
        [undefined, 'undefined'],
      ] as const) {
        const error = await failure(() => call(id));
        expect(error).toEqual(new TypeError(`${where}: ${name} must be a string, got ${got}`));
      }
      expect(await failure(() => call(''))).toEqual(
        new TypeError(`${where}: ${name} must be a non-empty string, got "" (a string)`),
      );
    },
  );
});
