import type { ReferenceServer } from '../create-reference-server.js';
import { ProxyViolationsError } from '../proxy/proxy-violations-error.js';
import { describeFaultsLeft } from './describe-fault.js';
import type { HarnessVerdict, VerdictOptions } from './harness-verdict.js';
import { unusedError } from './unused-error.js';

/**
 * Playwright's verdict, as each test ends: a protocol violation during the test fails it, then what
 * it left unused (the faults it queued, with `per: 'test'` its recordings). The test's own options
 * (`parleyTestOptions`) win over the helper's.
 */
export function testVerdict(options: VerdictOptions & { per: 'file' | 'test' }): HarnessVerdict {
  // The proxy's count when the running test began: what is above it is the test's.
  let violationsBefore = 0;
  return {
    async beginTest({ scope }) {
      violationsBefore = (await scope.proxyReport())?.violations ?? 0;
    },
    async endTest(test, server, how) {
      const report = await test.scope.proxyReport();
      const violated = report !== undefined && report.violations > violationsBefore;
      const failOnViolation = how.failOnViolation ?? options.failOnViolation;
      if (violated && failOnViolation) return new ProxyViolationsError(report);
      const recordings = recordingsLeft(test.cassetteKey, server, options.per);
      const left = [...(await describeFaultsLeft(test)), ...recordings];
      if (left.length === 0 || (how.allowUnused ?? options.allowUnused)) return undefined;
      return unusedError(options.caller, left);
    },
    finish: (_server, close) => close(),
  };
}

/** The recordings of a test (per test, in this process's cassette) it did not replay to their end. */
function recordingsLeft(key: string, server: ReferenceServer | undefined, per: 'file' | 'test'): string[] {
  const cassette = server?.cassette;
  if (per === 'file' || cassette === undefined) return [];
  const mark = `(test ${JSON.stringify(key)})`;
  return cassette
    .describeUnused()
    .filter((line) => line.includes(mark))
    .map((line) => `recording ${line}`);
}
