import { fileURLToPath } from 'node:url';
import { REPLAY_OPTION_KEYS } from '../cassette/cassette-config.js';
import type { CassetteExpiry } from '../cassette/cassette-expiry.js';
import { expiryVerdict } from '../cassette/cassette-expiry.js';
import { cassetteFileExists, readCassetteFile } from '../cassette/cassette-file.js';
import { CASSETTE_MODE_ENV, type CassetteMode, resolveCassetteMode } from '../cassette/cassette-mode.js';
import type { CassetteRedaction } from '../cassette/cassette-redaction.js';
import { REDACTION_KEYS } from '../cassette/cassette-redaction.js';
import type { ReplayOptions } from '../cassette/replay-model.js';
import type { ReferenceServerOptions } from '../reference-server-options.js';
import { systemClock } from '../time/system-clock.js';
import { checkOptions, type OptionKeys, wrongValue } from '../utils/check-options.js';

/** A cassette for the tests of a file: replayed as the model, or recorded through the upstream. */
export interface CassetteUse extends ReplayOptions, CassetteExpiry {
  /** The cassette file (a path relative to the current directory, or a `file:` URL). */
  file: string | URL;
  /**
   * `'replay'`: the file's recorded turns answer (it must exist). `'record'`: requests go to
   * `upstream` and the file is written after all tests (with `per: 'test'`, only the tests that ran
   * and passed are replaced). `'auto'` (default, Polly.js's `recordIfMissing`): record when the
   * file does not exist; when it does, replay it, and with `upstream` record what it lacks, as
   * `'record-missing'` does. `'record-missing'`: replay what the file holds; a session or turn it
   * lacks is answered by `upstream` and added to the file after all tests. The `PARLEY_CASSETTE_MODE`
   * environment variable overrides it (e.g. `PARLEY_CASSETTE_MODE=record` to record every cassette again).
   */
  mode?: CassetteMode;
  /**
   * `'file'` (default): the n-th session the file creates plays the n-th recorded one (or as
   * `match` says). `'test'`: each session is recorded under the full name of the test that created
   * it and replays in that test, whatever runs before it (`-t`, `.only`, a shuffled order, a new test).
   */
  per?: 'file' | 'test';
  /** Recording: fields and strings kept out of the file (headers are never written). */
  redact?: CassetteRedaction;
}

/**
 * Every key of {@link CassetteUse}, with its type, checked when `useReferenceServer` is called: a
 * new cassette option is one more line here (TypeScript fails until it is).
 */
export const CASSETTE_USE_KEYS = {
  ...REPLAY_OPTION_KEYS,
  file: true,
  mode: 'string',
  per: 'string',
  redact: 'object',
} as const satisfies OptionKeys<CassetteUse>;
/** Keys users reach for whose nearest spelling is not the one meant. */
export const CASSETTE_USE_RENAMED = { path: 'file', filename: 'file', name: 'file' };

/** What a cassette makes of the server options, and what this run does with it. */
export interface CassettePlan {
  serverOptions: ReferenceServerOptions;
  cassetteMode: 'replay' | 'record' | 'record-missing' | undefined;
  per: 'file' | 'test';
}

/**
 * The server options of a cassette: `replay` (with `recordMissing`) or `record` (written when the
 * server closes, after all tests). Bad settings throw here, when the helper is called.
 */
export function cassettePlan(
  serverOptions: ReferenceServerOptions,
  cassette: string | URL | CassetteUse | undefined,
  env: Readonly<Record<string, string | undefined>>,
  runner: 'vitest' | 'jest' | 'node:test' | 'playwright' = 'vitest',
): CassettePlan {
  if (cassette === undefined) return { serverOptions, cassetteMode: undefined, per: 'file' };
  const use: CassetteUse =
    typeof cassette === 'string' || cassette instanceof URL ? { file: cassette } : cassette;
  const where = 'useReferenceServer({ cassette })';
  checkOptions(use, CASSETTE_USE_KEYS, where, CASSETTE_USE_RENAMED);
  checkOptions(use.redact, REDACTION_KEYS, `${where} redact`);
  if (!(typeof use.file === 'string' && use.file !== '') && !(use.file instanceof URL)) {
    throw wrongValue(where, 'file', 'a path or a file: URL', use.file);
  }
  const { file: given, mode, redact, per = 'file', expiresIn, expiryStrategy, ...replay } = use;
  if (per !== 'file' && per !== 'test') {
    throw new TypeError(`cassette per ${JSON.stringify(per)} is not one of file, test`);
  }
  // Vitest sets VITEST in its workers: elsewhere there is no test to key a session by. The other
  // runners' helpers exist only inside their runner, which names each test.
  if (per === 'test' && runner === 'vitest' && env.VITEST === undefined) {
    throw new Error(
      "cassette per: 'test' keys sessions by the running vitest test: it works only under vitest",
    );
  }
  const file = given instanceof URL ? fileURLToPath(given) : given;
  const hasUpstream = serverOptions.upstream !== undefined;
  let cassetteMode = resolveCassetteMode({
    file,
    mode,
    envMode: env[CASSETTE_MODE_ENV],
    exists: cassetteFileExists(file),
    hasUpstream,
  });
  const expiry = {
    ...(expiresIn === undefined ? {} : { expiresIn }),
    ...(expiryStrategy === undefined ? {} : { expiryStrategy }),
  };
  if (cassetteMode !== 'record' && (expiresIn !== undefined || expiryStrategy !== undefined)) {
    const existing =
      cassetteMode === 'replay' || cassetteFileExists(file) ? readCassetteFile(file) : undefined;
    const clock = serverOptions.clock ?? systemClock;
    if (
      existing !== undefined &&
      expiryVerdict(existing, file, expiry, clock.now(), console.warn) === 'record'
    ) {
      if (!hasUpstream) {
        throw new Error(
          `${file} expired and expiryStrategy: 'record' records it again: that needs upstream: { url }`,
        );
      }
      cassetteMode = 'record';
    }
  }
  if (cassetteMode === 'record') {
    return {
      serverOptions: { ...serverOptions, record: { file, per, ...(redact === undefined ? {} : { redact }) } },
      cassetteMode,
      per,
    };
  }
  // A replay asks the upstream only for what the cassette lacks; otherwise it is not used.
  const { upstream, ...others } = serverOptions;
  const keepsUpstream = cassetteMode === 'record-missing' || replay.onMismatch === 'upstream';
  return {
    serverOptions: {
      ...others,
      ...(keepsUpstream && upstream !== undefined ? { upstream } : {}),
      replay: {
        ...replay,
        cassette: file,
        per,
        ...(cassetteMode === 'record-missing'
          ? { recordMissing: redact === undefined ? true : { redact } }
          : {}),
      },
    },
    cassetteMode,
    per,
  };
}
