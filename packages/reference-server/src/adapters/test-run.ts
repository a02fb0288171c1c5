import type { TestAttempt } from './test-id-value.js';
import type { ScopeAccess } from './test-scope.js';

/** A test as its runner names it. */
export interface HarnessTest {
  /** Its full name (`describe > it`): the key of its recordings in the file's cassette. */
  name: string;
  /** Its file: on a shared server its id is `file > name`, so two files' tests never meet. */
  file?: string;
  /** Playwright's repeat and retry; a name begun again in this process counts as a run of its own. */
  attempt?: TestAttempt;
  /** The command that records it again, named when a replay mismatches. */
  rerecord?: { command: string; oneTest: boolean };
}

/** How a test ended: a failed or skipped test's recording is never written. */
export type TestOutcome = 'passed' | 'failed' | 'skipped';

/** One run of a test on its server, begun: what the harness reads and how it tells the end. */
export interface TestRun {
  /** Its id: its full name, or on a shared server its `x-parley-test-id`. */
  readonly testId: string;
  readonly scope: ScopeAccess;
  /** On a shared server, `fetch` with the test's id; undefined on a server of the file's own. */
  readonly fetch: ((path: string | URL, init?: RequestInit) => Promise<Response>) | undefined;
  /** Tells the cassette how the test ended: a failed or skipped test's recording is not written. */
  report(outcome: TestOutcome): Promise<void>;
}

/** The running test: its run on the server, and its name, which keys its recordings in the cassette. */
export interface CurrentTest extends TestRun {
  readonly cassetteKey: string;
}
