import type { ProxyExchange, ProxyObserver } from '../proxy/proxy-exchange.js';
import type { Clock } from '../time/clock.js';
import { TEST_ID_HEADER, testIdWithoutAttempt } from '../utils/test-id.js';
import type { CassetteControl, RecordConfig } from './cassette-config.js';
import type { CassetteRecorderOptions } from './cassette-recorder.js';
import type { TestOutcomes } from './recording-merge.js';

/** Options of the `record` option's recorder. */
export interface RecordingOptions extends CassetteRecorderOptions {
  file: string;
  /** `'test'`: the file keeps the tests this run did not record (see `mergeTestRecording`). */
  per: 'file' | 'test';
  /** The tests that ran and failed, read when the server closes. */
  outcomes: () => TestOutcomes;
  /** Where the line saying what was written goes. */
  log: (line: string) => void;
}

/**
 * The recorder of the `record` option: it keeps the exchanges it is told of (and, with
 * `testName`, the test each arrived in) and, when the server closes, builds the cassette and writes
 * it: with `per: 'test'` into the file as it was (the tests that did not run, or failed, keep their
 * recordings); with `per: 'file'` whole, unless a test failed and the file already holds a
 * recording. The builder is loaded then, not with the server.
 */
export function recordingObserver(options: RecordingOptions): ProxyObserver & { close(): Promise<void> } {
  const exchanges: ProxyExchange[] = [];
  const tests = new Map<number, string>();
  return {
    onExchange(exchange) {
      exchanges.push(exchange);
      // A request of a test scope belongs to that test (its x-parley-test-id is the key).
      const test =
        options.testName === undefined
          ? undefined
          : (withoutAttempt(exchange.requestHeaders[TEST_ID_HEADER]) ?? options.testName());
      if (test !== undefined) tests.set(exchange.seq, test);
    },
    async close() {
      const [{ createCassetteRecorder }, { writeRecording }] = await Promise.all([
        import('./cassette-recorder.js'),
        import('./write-recording.js'),
      ]);
      const { per, outcomes, log, ...recorderOptions } = options;
      let feeding: number | undefined;
      const recorder = createCassetteRecorder({
        ...recorderOptions,
        testName: () => (feeding === undefined ? undefined : tests.get(feeding)),
      });
      for (const exchange of exchanges) {
        feeding = exchange.seq;
        recorder.onExchange(exchange);
      }
      await writeRecording(options.file, recorder.cassette(), { per, outcomes: outcomes(), log });
    },
  };
}

/**
 * The recorder of the `record` option and the control the server exposes for it: the tests begun
 * label the sessions (`per: 'test'`), and the tests that ran, failed or did not run decide what
 * is written when the server closes.
 */
export function recordingControl(
  config: RecordConfig,
  upstreamUrl: string,
  deps: { clock: Clock; log(line: string): void },
): { recorder: ProxyObserver & { close(): Promise<void> }; control: CassetteControl } {
  let test: string | undefined;
  const ran = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  const notRun = new Set<string>();
  const unfinished = new Set<string>();
  const { per = 'file', ...recorderOptions } = config;
  const recorder = recordingObserver({
    ...recorderOptions,
    per,
    clock: deps.clock,
    upstream: upstreamUrl,
    outcomes: () => ({ ran, failed, skipped, notRun, unfinished }),
    log: deps.log,
    ...(per === 'test' ? { testName: () => test } : {}),
  });
  const control: CassetteControl = {
    name: config.file,
    mode: 'record',
    beginTest: (name) => {
      test = name;
      ran.add(name);
    },
    failTest: (name) => {
      failed.add(name);
    },
    skipTest: (name) => {
      skipped.add(name);
    },
    testsNotRun: (names) => {
      for (const name of names) notRun.add(name);
    },
    testStatus: (name, status) => {
      ran.add(name);
      // Any run of the test that fails keeps the old recording: the test's runs share one key.
      if (status === 'running') unfinished.add(name);
      else unfinished.delete(name);
      if (status === 'failed') failed.add(name);
      if (status === 'skipped') skipped.add(name);
    },
    mismatches: () => 0,
    unused: () => [],
    describeUnused: () => [],
  };
  return { recorder, control };
}

/** A shared server's test id, without the run (a retry records what its test does). */
function withoutAttempt(testId: string | undefined): string | undefined {
  return testId === undefined ? undefined : testIdWithoutAttempt(testId);
}
