import {
  createCassetteRecorder,
  createExtensionHost,
  createReferenceServer,
  createStandInModel,
} from '@parley/reference-server';
import { createHandlers } from '@parley/reference-server/msw';
import { startServer } from '@parley/reference-server/node';
import { useReferenceServer } from '@parley/reference-server/vitest';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { USE_OPTION_KEYS } from '../src/adapters/runner-options.js';
import { START_SERVER_OPTION_KEYS } from '../src/adapters/start-server.js';
import { CASSETTE_USE_KEYS, CASSETTE_USE_RENAMED } from '../src/adapters/vitest-cassette.js';
import { RECORD_CONFIG_KEYS, REPLAY_CONFIG_KEYS } from '../src/cassette/cassette-config.js';
import { RECORDER_OPTION_KEYS } from '../src/cassette/cassette-recorder.js';
import { REDACTION_KEYS } from '../src/cassette/cassette-redaction.js';
import { EXTENSION_HOST_OPTION_KEYS } from '../src/extensions/create-extension-host.js';
import { STAND_IN_OPTION_KEYS } from '../src/model/stand-in-model.js';
import { UPSTREAM_OPTION_KEYS } from '../src/proxy/upstream-options.js';
import { SERVER_OPTION_KEYS } from '../src/reference-server-options.js';
import { CHAOS_OPTION_KEYS } from '../src/testing/chaos-options.js';
import { QUEUED_FAULT_KEYS } from '../src/testing/fault-queue.js';
import { JOURNAL_FILTER_KEYS } from '../src/testing/journal-entry.js';
import { checkOptions, typoWarnings } from '../src/utils/check-options.js';
import { nearestName } from '../src/utils/nearest-name.js';

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

/** console.warn, watched: the lines written. */
function watchWarnings(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const unknownKey = (keys: Readonly<Record<string, unknown>>) =>
  fc
    .stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,20}$/)
    .filter((key) => !Object.hasOwn(keys, key) && !(key in Object.prototype));

describe('an options object of the server: a typo is named, a wider object is valid, a wrong type throws', () => {
  it.each([
    [
      'createReferenceServer()',
      () => createReferenceServer({ heartbeatTimeout: 5 } as never),
      'heartbeatTimeout',
      'heartbeatTimeoutMs',
    ],
    [
      'createReferenceServer({ users[0] })',
      () => createReferenceServer({ users: [{ name: 'ada', tokn: 'x' }] as never }),
      'tokn',
      'token',
    ],
    [
      'createReferenceServer({ agents.x })',
      () => createReferenceServer({ agents: { x: { systemPrompt: 'Hi', paramters: {} } } as never }),
      'paramters',
      'parameters',
    ],
  ])('the example of the issue for %s is a warning naming the key meant', async (where, call, key, meant) => {
    const warnings = watchWarnings();
    call();
    expect(warnings).toEqual([`[parley] Unknown option "${key}" for ${where}; did you mean "${meant}"?`]);
  });

  it('an object with fields of its own, far from every option, is taken without a word (TypeScript passes wider objects)', () => {
    const warnings = watchWarnings();
    const options = { maxSessions: 5, label: 'ci', retry: 3 };
    expect(() => createReferenceServer(options)).not.toThrow();
    expect(warnings).toEqual([]);
  });

  it.each(ENTRIES.map((entry) => [entry.where, entry] as const))(
    'an unknown key of %s is named only when it is near a key the object lacks',
    (_where, entry) => {
      fc.assert(
        fc.property(unknownKey(entry.keys), (key) => {
          expect(() =>
            checkOptions({ [key]: 1 }, entry.keys as never, entry.where, entry.renamed),
          ).not.toThrow();
          const meant = entry.renamed?.[key] ?? nearestName(key, Object.keys(entry.keys));
          expect(typoWarnings({ [key]: 1 }, entry.keys, entry.where, entry.renamed)).toEqual(
            meant === undefined
              ? []
              : [
                  `[parley] Unknown option ${JSON.stringify(key)} for ${entry.where}; did you mean ${JSON.stringify(meant)}?`,
                ],
          );
        }),
        { numRuns: 20 },
      );
    },
  );

  it.each(ENTRIES.map((entry) => [entry.where, entry] as const))(
    'every known key of %s is accepted',
    (_where, entry) => {
      const warnings = watchWarnings();
      const known = Object.fromEntries(Object.keys(entry.keys).map((key) => [key, undefined]));
      expect(() => checkOptions(known, entry.keys as never, entry.where)).not.toThrow();
      expect(warnings).toEqual([]);
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
