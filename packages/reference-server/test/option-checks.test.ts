import { nearestKey } from '@parley/protocol/option-check';
import {
  createCassetteRecorder,
  createExtensionHost,
  createReferenceServer,
  createStandInModel,
  turn,
} from '@parley/reference-server';
import { createHandlers } from '@parley/reference-server/msw';
import { startServer } from '@parley/reference-server/node';
import { useReferenceServer } from '@parley/reference-server/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { USE_OPTION_KEYS } from '../src/adapters/runner-options.js';
import { START_SERVER_OPTION_KEYS } from '../src/adapters/start-server.js';
import { CASSETTE_USE_KEYS, CASSETTE_USE_RENAMED } from '../src/adapters/vitest-cassette.js';
import { RECORD_CONFIG_KEYS, REPLAY_CONFIG_KEYS } from '../src/cassette/cassette-config.js';
import { RECORDER_OPTION_KEYS } from '../src/cassette/cassette-recorder.js';
import { REDACTION_KEYS } from '../src/cassette/cassette-redaction.js';
import { EXTENSION_HOST_OPTION_KEYS } from '../src/extensions/create-extension-host.js';
import { STAND_IN_OPTION_KEYS } from '../src/model/stand-in-model.js';
import { TURN_EXTRA_KEYS } from '../src/model/turn.js';
import { UPSTREAM_OPTION_KEYS } from '../src/proxy/upstream-options.js';
import { SERVER_OPTION_KEYS } from '../src/reference-server-options.js';
import { CHAOS_OPTION_KEYS } from '../src/testing/chaos-options.js';
import { QUEUED_FAULT_KEYS } from '../src/testing/fault-queue.js';
import { JOURNAL_FILTER_KEYS } from '../src/testing/journal-entry.js';

/** One options object of the server: where its mistakes are named, its keys, and a call that takes it. */
interface Entry {
  where: string;
  keys: Readonly<Record<string, unknown>>;
  call(options: Record<string, unknown>): unknown;
  /** Keys users reach for whose nearest spelling is not the one meant. */
  renamed?: Readonly<Record<string, string>>;
}

const server = createReferenceServer();

const ENTRIES: Entry[] = [
  { where: 'createReferenceServer()', keys: SERVER_OPTION_KEYS, call: (o) => createReferenceServer(o) },
  { where: 'startServer()', keys: START_SERVER_OPTION_KEYS, call: (o) => startServer(o) },
  { where: 'useReferenceServer()', keys: USE_OPTION_KEYS, call: (o) => useReferenceServer(o) },
  {
    where: 'useReferenceServer({ cassette })',
    keys: CASSETTE_USE_KEYS,
    renamed: CASSETTE_USE_RENAMED,
    call: (o) => useReferenceServer({ cassette: { file: 'never-written.json', ...o } }),
  },
  {
    where: 'useReferenceServer({ cassette }) redact',
    keys: REDACTION_KEYS,
    call: (o) => useReferenceServer({ cassette: { file: 'never-written.json', redact: o } }),
  },
  {
    where: 'createReferenceServer({ upstream })',
    keys: UPSTREAM_OPTION_KEYS,
    call: (o) => createReferenceServer({ upstream: { url: 'http://upstream.test', ...o } }),
  },
  {
    where: 'createReferenceServer({ replay })',
    keys: REPLAY_CONFIG_KEYS,
    call: (o) =>
      createReferenceServer({
        replay: { cassette: { format: 'parley-cassette', version: 2, sessions: [] }, ...o },
      }),
  },
  {
    where: 'createReferenceServer({ record })',
    keys: RECORD_CONFIG_KEYS,
    call: (o) => createReferenceServer({ record: { file: 'never-written.json', ...o } }),
  },
  {
    where: 'createHandlers()',
    keys: { baseUrl: 'string' },
    call: (o) => createHandlers(server, { baseUrl: 'http://parley.test', ...o }),
  },
  {
    where: 'faults.next()',
    keys: QUEUED_FAULT_KEYS,
    call: (o) => createReferenceServer().faults.next(o),
  },
  {
    where: 'chaos',
    keys: CHAOS_OPTION_KEYS,
    call: (o) => createReferenceServer({ chaos: { rate: 0.1, seed: 1, ...o } }),
  },
  { where: 'createExtensionHost()', keys: EXTENSION_HOST_OPTION_KEYS, call: (o) => createExtensionHost(o) },
  { where: 'journal.entries()', keys: JOURNAL_FILTER_KEYS, call: (o) => server.journal.entries(o) },
  {
    where: 'server.reset()',
    keys: { user: 'string', testId: 'string' },
    call: (o) => createReferenceServer().reset(o),
  },
  { where: 'createStandInModel()', keys: STAND_IN_OPTION_KEYS, call: (o) => createStandInModel(o) },
  { where: 'createCassetteRecorder()', keys: RECORDER_OPTION_KEYS, call: (o) => createCassetteRecorder(o) },
  { where: 'turn.text()', keys: TURN_EXTRA_KEYS, call: (o) => turn.text('Hi', o) },
  { where: 'turn.toolUse()', keys: TURN_EXTRA_KEYS, call: (o) => turn.toolUse('get_weather', {}, o) },
  { where: 'turn.toolUses()', keys: TURN_EXTRA_KEYS, call: (o) => turn.toolUses([], o) },
  { where: 'turn.fail()', keys: TURN_EXTRA_KEYS, call: (o) => turn.fail('down', o) },
  {
    where: 'createCassetteRecorder() redact',
    keys: REDACTION_KEYS,
    call: (o) => createCassetteRecorder({ redact: o }),
  },
];

async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

const unknownKey = (keys: Readonly<Record<string, unknown>>) =>
  fc
    .stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,20}$/)
    .filter((key) => !Object.hasOwn(keys, key) && !(key in Object.prototype));

describe('a mistake in an options object of the server is named at once', () => {
  it.each([
    [
      'createReferenceServer()',
      () => createReferenceServer({ heartbeatTimeout: 5 } as never),
      'heartbeatTimeoutMs',
    ],
    ['useReferenceServer()', () => useReferenceServer({ upstreamUrl: 'http://x.test' } as never), 'upstream'],
    [
      'useReferenceServer({ cassette })',
      () => useReferenceServer({ cassette: { path: 'x.json' } as never }),
      'file',
    ],
  ])('the example of the issue for %s names the key meant', async (where, call, meant) => {
    const error = await failure(call);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Unknown option "\\w+" for ${where.replace(/[()[\]{}]/g, '\\$&')}; did you mean "${meant}"\\?$`,
      ),
    );
  });

  it.each(ENTRIES.map((entry) => [entry.where, entry] as const))(
    'an unknown key of %s is a TypeError naming it and the nearest known key',
    async (_where, entry) => {
      await fc.assert(
        fc.asyncProperty(unknownKey(entry.keys), async (key) => {
          const error = await failure(() => entry.call({ [key]: 1 }));
          expect(error).toBeInstanceOf(TypeError);
          const meant = entry.renamed?.[key] ?? nearestKey(key, Object.keys(entry.keys));
          expect((error as Error).message).toBe(
            `Unknown option ${JSON.stringify(key)} for ${entry.where}; did you mean ${JSON.stringify(meant)}?`,
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
      for (const [key, type] of Object.entries(entry.keys).filter(([, type]) => type !== true)) {
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

  it('a cassette without a file names the option instead of "cassette undefined does not exist yet"', () => {
    expect(() => useReferenceServer({ cassette: { mode: 'replay' } as never })).toThrow(
      new TypeError('useReferenceServer({ cassette }): file must be a path or a file: URL, got undefined'),
    );
  });
});
