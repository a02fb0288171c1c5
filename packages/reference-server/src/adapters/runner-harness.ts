import { assertNoViolations, ProxyViolationsError } from '../proxy/proxy-violations-error.js';
import { describeFault } from './describe-fault.js';
import { harnessOptions } from './harness-options.js';
import { type Running, startOwnServer } from './own-server.js';
import { runnerHandle } from './runner-handle.js';
import type { ReferenceServerHandle, Runner, UseReferenceServerOptions } from './runner-options.js';
import { sharedRunning } from './shared-running.js';
import { connectSharedServer } from './shared-server.js';
import type { HarnessTest, TestOutcome, TestRun } from './test-run.js';
import type { ScopeAccess } from './test-scope.js';

export type { HarnessTest, TestOutcome } from './test-run.js';

/** What one test (Playwright's `parleyTestOptions`) says about its end. */
export interface EndTestOptions {
  /** Gets the test's scope, before its reset, when it failed: Playwright attaches the journal. */
  attach?: (scope: ScopeAccess) => Promise<void>;
  /** This test's `allowUnused`, over the helper's. */
  allowUnused?: boolean;
  /** This test's `failOnViolation`, over the helper's. */
  failOnViolation?: boolean;
}

/** The running test: its run on the server, its cassette key and what `endTest` compares. */
export interface CurrentTest extends TestRun {
  readonly cassetteKey: string;
  readonly violationsBefore: number;
}

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
  const { verdict } = setup;
  const { caller, shared, plan, token, own, resetAfterEach, createClient, allowUnused, failOnViolation } =
    harnessOptions(setup.runner, options, env);
  const { per } = plan;
  let running: Running | undefined;
  let current: CurrentTest | undefined;
  // Faults queued in a test and never taken, by test: the reset after it drops them.
  const untaken: string[] = [];
  // Tests begun by name: a name begun again (a retry, a repeat, a second test of one title) is another run.
  const runs = new Map<string, number>();

  // What the test left unused: faults, and with `verdict: 'test'` its recordings per test.
  const leftBy = async ({ scope, testId, cassetteKey }: CurrentTest): Promise<string[]> => {
    const faults = (await scope.pendingFaults()).map(
      (fault) => `${describeFault(fault)} queued in test ${JSON.stringify(testId)}`,
    );
    if (verdict === 'file' || per === 'file') return faults;
    const key = `(test ${JSON.stringify(cassetteKey)})`;
    const recordings = running?.server?.cassette?.describeUnused() ?? [];
    return [...faults, ...recordings.filter((line) => line.includes(key)).map((line) => `recording ${line}`)];
  };
  // With `verdict: 'test'`: what fails the test, a protocol violation during it or what it left unused.
  const failureOf = async (test: CurrentTest, problems: string[], how: EndTestOptions) => {
    const report = await test.scope.proxyReport();
    const violated = report !== undefined && report.violations > test.violationsBefore;
    if (violated && (how.failOnViolation ?? failOnViolation)) return new ProxyViolationsError(report);
    if (problems.length > 0 && !(how.allowUnused ?? allowUnused)) return unusedError(caller, problems);
    return undefined;
  };

  const harness: RunnerHarness<Client> = {
    per,
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
      running.server?.cassette?.testsNotRun(notRun);
    },
    async beginTest(test) {
      const run = (runs.get(test.name) ?? 0) + 1;
      runs.set(test.name, run);
      const begun = await started(running, caller).begin(test, { ...test.attempt, run });
      const violationsBefore = verdict === 'test' ? ((await begun.scope.proxyReport())?.violations ?? 0) : 0;
      current = { ...begun, cassetteKey: test.name, violationsBefore };
      return current;
    },
    async endTest(outcome, how = {}) {
      const test = current;
      if (test === undefined) return;
      const problems = await leftBy(test);
      const failure = verdict === 'test' ? await failureOf(test, problems, how) : undefined;
      const failed = outcome === 'failed' || failure !== undefined;
      if (failed) await how.attach?.(test.scope);
      // A failed or skipped test's recording is never written over the one the file holds.
      await test.report(failed ? 'failed' : outcome);
      current = undefined;
      if (verdict === 'file') {
        if (!resetAfterEach) return;
        untaken.push(...problems);
      }
      await test.scope.reset();
      if (failure !== undefined) throw failure;
    },
    async finish(notRun = []) {
      const server = running?.server;
      const cassette = server?.cassette;
      cassette?.testsNotRun(notRun);
      if (!resetAfterEach && server !== undefined) {
        for (const fault of server.faults.pending) untaken.push(`${describeFault(fault)} still queued`);
      }
      // A file that failed on a replay mismatch was told its fix: what it left unused follows from it.
      const mismatched = (cassette?.mismatches() ?? 0) > 0;
      const unused = verdict === 'file' ? (cassette?.describeUnused() ?? []) : [];
      const proxy = server?.proxy;
      await running?.close();
      running = undefined;
      // After every request ended: the deployment's answers broke the protocol, the file fails.
      if (verdict === 'file' && proxy !== undefined && failOnViolation) assertNoViolations(proxy.report());
      const lines = [...unused.map((line) => `recording ${line}`), ...untaken];
      if (allowUnused || mismatched || lines.length === 0) return;
      throw unusedError(caller, lines);
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
  return harness;
}

function started(running: Running | undefined, caller: string): Running {
  if (running === undefined) {
    throw new Error(`${caller}: the server runs only inside tests and hooks of this file`);
  }
  return running;
}

function unusedError(caller: string, lines: readonly string[]): Error {
  return new Error(
    `${caller}: ${lines.length} thing${lines.length === 1 ? ' was' : 's were'} never used ` +
      `(pass allowUnused: true to let this pass):\n  ${lines.join('\n  ')}`,
  );
}
