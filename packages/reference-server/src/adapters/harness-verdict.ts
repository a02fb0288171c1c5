import type { ReferenceServer } from '../create-reference-server.js';
import type { CurrentTest, TestRun } from './test-run.js';
import type { ScopeAccess } from './test-scope.js';

/** What one test (Playwright's `parleyTestOptions`) says about its end. */
export interface EndTestOptions {
  /** Gets the test's scope, before its reset, when it failed: Playwright attaches the journal. */
  attach?: (scope: ScopeAccess) => Promise<void>;
  /** This test's `allowUnused`, over the helper's. */
  allowUnused?: boolean;
  /** This test's `failOnViolation`, over the helper's. */
  failOnViolation?: boolean;
}

/** The helper's own settings a verdict judges by. */
export interface VerdictOptions {
  /** Names the helper in errors. */
  caller: string;
  /** Unused recordings and faults pass. */
  allowUnused: boolean;
  /** A protocol violation of the deployment (a checking proxy) fails. */
  failOnViolation: boolean;
}

/**
 * When a harness judges what its tests left unused (faults, recordings) and the deployment's
 * protocol violations: as each test ends (Playwright, `testVerdict`), or after all tests of a file
 * (vitest, Jest, node:test, `fileVerdict`). `server`: the server in this process, undefined on a
 * shared one.
 */
export interface HarnessVerdict {
  /** A test began: what its end is compared with. */
  beginTest(run: TestRun): Promise<void>;
  /**
   * The test ended, before its reset: the error that fails it, or undefined; what the file is
   * judged on after all is noted.
   */
  endTest(
    test: CurrentTest,
    server: ReferenceServer | undefined,
    how: EndTestOptions,
  ): Promise<Error | undefined>;
  /** After all tests: reads what the run left, closes the server with `close`, then throws what fails the file. */
  finish(server: ReferenceServer | undefined, close: () => Promise<void>): Promise<void>;
}
