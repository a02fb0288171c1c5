import { assertNoViolations } from '../proxy/proxy-violations-error.js';
import { describeFault, describeFaultsLeft } from './describe-fault.js';
import type { HarnessVerdict, VerdictOptions } from './harness-verdict.js';
import { unusedError } from './unused-error.js';

/**
 * The verdict of the vitest, Jest and node:test helpers, after all tests of a file: the faults its
 * tests left, the recordings it never replayed and the deployment's protocol violations fail it.
 * `resetAfterEach`: each test's faults are noted at its end (its reset drops them); without it,
 * what a test queued may serve a later one, and what is still queued after all counts.
 */
export function fileVerdict(options: VerdictOptions & { resetAfterEach: boolean }): HarnessVerdict {
  const { caller, allowUnused, failOnViolation, resetAfterEach } = options;
  // Faults queued in a test and never taken, by test.
  const untaken: string[] = [];
  return {
    beginTest: async () => {},
    async endTest(test) {
      if (resetAfterEach) untaken.push(...(await describeFaultsLeft(test)));
      return undefined;
    },
    async finish(server, close) {
      const cassette = server?.cassette;
      if (!resetAfterEach && server !== undefined) {
        for (const fault of server.faults.pending) untaken.push(`${describeFault(fault)} still queued`);
      }
      // A file that failed on a replay mismatch was told its fix: what it left unused follows from it.
      const mismatched = (cassette?.mismatches() ?? 0) > 0;
      const unused = (cassette?.describeUnused() ?? []).map((line) => `recording ${line}`);
      await close();
      // After every request ended: the deployment's answers broke the protocol, the file fails.
      const proxy = server?.proxy;
      if (proxy !== undefined && failOnViolation) assertNoViolations(proxy.report());
      const lines = [...unused, ...untaken];
      if (allowUnused || mismatched || lines.length === 0) return;
      throw unusedError(caller, lines);
    },
  };
}
