import type { OptionKeys } from '../utils/check-options.js';
import type { TestStatus } from '../utils/test-status.js';
import type { CassetteExpiry } from './cassette-expiry.js';
import type { Cassette } from './cassette-format.js';
import type { CassetteRecorderOptions } from './cassette-recorder.js';
import type { CassetteRedaction } from './cassette-redaction.js';
import type { ReplayOptions } from './replay-model.js';
import type { UnusedRecording } from './replay-usage.js';

/** The `replay` option with its settings. */
export interface ReplayConfig extends ReplayOptions, CassetteExpiry {
  /** A cassette file path (Node) or a parsed cassette. */
  cassette: string | Cassette;
  /** Names the cassette in mismatch errors. Default: its path, or `given in code`. */
  name?: string;
  /**
   * Record what is missing: a session the cassette does not hold, or a turn past a recorded
   * session's last, is answered by `upstream` (which it needs) and added to the file when the server
   * closes; the other recordings keep their text. Needs a file path (a missing file starts empty).
   * `{ redact }` redacts what is added. Default false.
   */
  recordMissing?: boolean | { redact?: CassetteRedaction };
  /**
   * `'file'` (default): sessions find their recordings by `match`. `'test'`: by the test that
   * created them and their order in it (`server.cassette.beginTest`, which the vitest helper calls).
   */
  per?: 'file' | 'test';
}

/**
 * Every key of a replay's settings ({@link ReplayOptions} and {@link CassetteExpiry}), with its
 * type: a new setting is one more line here (TypeScript fails until it is).
 */
export const REPLAY_OPTION_KEYS = {
  onMismatch: 'string',
  pace: 'string',
  speed: 'number',
  match: 'object',
  expiresIn: 'string',
  expiryStrategy: 'string',
} as const satisfies OptionKeys<ReplayOptions & CassetteExpiry>;

/** Every key of {@link ReplayConfig}, the `replay` option's object form. */
export const REPLAY_CONFIG_KEYS = {
  ...REPLAY_OPTION_KEYS,
  cassette: true,
  name: 'string',
  recordMissing: true,
  per: 'string',
} as const satisfies OptionKeys<ReplayConfig>;

/** The `record` option with its settings. */
export interface RecordConfig extends Omit<CassetteRecorderOptions, 'clock' | 'upstream' | 'testName'> {
  /** Where the cassette is written when the server closes. */
  file: string;
  /** `'test'`: each session is written with the test that created it (`server.cassette.beginTest`). */
  per?: 'file' | 'test';
}

/** Every key of {@link RecordConfig}, the `record` option's object form. */
export const RECORD_CONFIG_KEYS = {
  file: 'string',
  redact: 'object',
  per: 'string',
} as const satisfies OptionKeys<RecordConfig>;

/** What a server does with its cassette: `server.cassette`. */
export interface CassetteControl {
  /** The cassette's file path (or the name it was given). */
  readonly name: string;
  /** `'replay'`, `'record'` (everything through the proxy) or `'record-missing'`. */
  readonly mode: 'replay' | 'record' | 'record-missing';
  /**
   * The sessions created from now on belong to this test (its full name): with `per: 'test'` they
   * replay, and are recorded, as that test's. The vitest helper calls it before each test.
   * `rerecord`, when given, is the command that records this test again: a replay mismatch names it.
   */
  beginTest(name: string, how?: { rerecord?: { command: string; oneTest: boolean } }): void;
  /**
   * The test failed: while recording, what it recorded is not written (a failed test's recording
   * never replaces one). The vitest helper calls it for each failed test.
   */
  failTest(name: string): void;
  /**
   * The test was skipped after it began (`t.skip()`, `test.skip()` inside it): like a failed one,
   * what it recorded is not written, and its recording in the file is kept.
   */
  skipTest(name: string): void;
  /**
   * Tests this run does not run (`-t`, `.skip`, `.only`): a recording per file (`per: 'file'`),
   * which replaces the file whole, is then not written over the recording the file holds.
   */
  testsNotRun(names: readonly string[]): void;
  /**
   * A test of a shared server (its id without the run) began (`running`) or ended: what
   * `POST /_parley/cassette/outcome` tells. A failed or skipped test's recording is not written, as
   * with {@link failTest}; nor is one of a test still `running` when the server closes (its runner
   * died before the test ended), like a test that did not run.
   */
  testStatus(name: string, status: TestStatus): void;
  /** How many model calls failed with `replay_mismatch` so far. */
  mismatches(): number;
  /**
   * Recorded sessions not replayed to their last turn (with `per: 'test'`, of the tests begun);
   * empty while recording everything.
   */
  unused(): UnusedRecording[];
  /** {@link unused} as lines: `session 2 of 3 (test "weather > Oslo"): never replayed`. */
  describeUnused(): string[];
}
