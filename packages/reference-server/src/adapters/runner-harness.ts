import { fileVerdict } from './file-verdict.js';
import { harnessOptions } from './harness-options.js';
import type { EndTestOptions } from './harness-verdict.js';
import { type Running, startOwnServer } from './own-server.js';
import { runnerHandle } from './runner-handle.js';
import type { ReferenceServerHandle, Runner, UseReferenceServerOptions } from './runner-options.js';
import { sharedRunning } from './shared-running.js';
import { connectSharedServer } from './shared-server.js';
import type { CurrentTest, HarnessTest, TestOutcome } from './test-run.js';
import { testVerdict } from './test-verdict.js';

export type { EndTestOptions } from './harness-verdict.js';
export type { CurrentTest, HarnessTest, TestOutcome } from './test-run.js';

/**
 * What every runner's helper does, whichever runner calls it (vitest, Jest, node:test and the
 * Playwright fixture): the runner's adapter calls {@link start} before all tests (of a file, or of a
 * Playwright worker), {@link beginTest} and {@link endTest} around each, and {@link finish} after
 * all; {@link handle} is what `useReferenceServer` returns.
 */
export interface RunnerHarness<Client> {
  readonly handle: ReferenceServerHandle<Client>;
  /** How the cassette keys its recordings: by file, or by test. */
  readonly per: 'file' | 'test';
  /** Starts the server, or checks the shared one answers; `notRun`: the tests this run skips. */
  start(notRun?: readonly string[]): Promise<void>;
  beginTest(test: HarnessTest): Promise<CurrentTest>;
  /**
   * The test ended: a failed or skipped one's recording is not written; what it left unused (a
   * fault, with `verdict: 'test'` a recording or a protocol violation) is noted; `attach` (before the
   * reset) gets its scope when it failed; then its scope is reset. With `verdict: 'test'`, throws what
   * it left.
   */
  endTest(outcome: TestOutcome, how?: EndTestOptions): Promise<void>;
  /**
   * After all tests: closes the server, then throws on protocol violations or unused things.
   * `notRun`: tests the runner skipped, told after they were (Jest).
   */
  finish(notRun?: readonly string[]): Promise<void>;
  /** The running test, or undefined between tests. */
  readonly current: CurrentTest | undefined;
  /** The server (its own) or shared one, once started. */
  readonly running: Running | undefined;
}

/** What differs between runners: who names the helper, and whether unused things fail a test or a file. */
export interface HarnessSetup {
  runner: Runner;
  /** `'test'` (Playwright): unused things and violations fail the test; `'file'`: the file, after all. */
  verdict: 'test' | 'file';
  /** Playwright: hosts the worker's server lets in (the page's base URL). */
  allowedHost?: string;
}

/**
 * The runner-neutral part of every helper. Options are checked here, when the helper is called: a
 * bad cassette setting, a shared server without its URL, or an option of another runner's helper
 * fails at once.
 */
export function createRunnerHarness<Client>(
  setup: HarnessSetup,
  options: UseReferenceServerOptions<Client>,
  env: Readonly<Record<string, string | undefined>>,
): RunnerHarness<Client> {
  const { caller, shared, plan, token, own, resetAfterEach, createClient, allowUnused, failOnViolation } =
    harnessOptions(setup.runner, options, env);
  const judged = { caller, allowUnused, failOnViolation };
  const verdict =
    setup.verdict === 'test'
      ? testVerdict({ ...judged, per: plan.per })
      : fileVerdict({ ...judged, resetAfterEach });
  let running: Running | undefined;
  let current: CurrentTest | undefined;
  return {
    per: plan.per,
    get current() {
      return current;
    },
    get running() {
      return running;
    },
    async start(notRun = []) {
      running =
        shared === undefined
          ? await startOwnServer({
              ...own,
              allowedHost: setup.allowedHost,
              serverOptions: plan.serverOptions,
            })
          : sharedRunning(await connectSharedServer({ ...shared, caller }));
      running.testsNotRun(notRun);
    },
    async beginTest(test) {
      const run = await started(running, caller).begin(test);
      await verdict.beginTest(run);
      current = { ...run, cassetteKey: test.name };
      return current;
    },
    async endTest(outcome, how = {}) {
      const test = current;
      if (test === undefined) return;
      const failure = await verdict.endTest(test, running?.server, how);
      const failed = outcome === 'failed' || failure !== undefined;
      if (failed) await how.attach?.(test.scope);
      // A failed or skipped test's recording is never written over the one the file holds.
      await test.report(failed ? 'failed' : outcome);
      current = undefined;
      // Without the reset, what a test queued may serve a later one: the file is judged after all.
      if (resetAfterEach) await test.scope.reset();
      if (failure !== undefined) throw failure;
    },
    async finish(notRun = []) {
      running?.testsNotRun(notRun);
      await verdict.finish(running?.server, async () => {
        await running?.close();
        running = undefined;
      });
    },
    handle: runnerHandle<Client>({
      mode: shared === undefined ? own.mode : 'shared',
      cassetteMode: plan.cassetteMode,
      token,
      createClient,
      caller,
      running: () => started(running, caller),
      current: () => current,
    }),
  };
}

function started(running: Running | undefined, caller: string): Running {
  if (running === undefined) {
    throw new Error(`${caller}: the server runs only inside tests and hooks of this file`);
  }
  return running;
}
