import type { Running } from './own-server.js';
import type { SharedServer } from './shared-server.js';

/**
 * A shared server as a harness's server: each test runs in a clean scope of its own, and tells the
 * server's cassette that it began and how it ended (a recording keeps a test that never ended).
 */
export function sharedRunning(shared: SharedServer): Running {
  // Tests begun by name: a name begun again (a retry, a repeat, a second test of one title) is
  // another run, with an id of its own.
  const runs = new Map<string, number>();
  return {
    url: shared.url,
    server: undefined,
    shared,
    async begin(test) {
      const run = (runs.get(test.name) ?? 0) + 1;
      runs.set(test.name, run);
      const name = test.file === undefined ? test.name : `${test.file} > ${test.name}`;
      const scope = shared.testScope(name, { ...test.attempt, run });
      // A clean scope for this run: a server that outlives one test run keeps what an earlier run
      // with this id left when it was killed before its end-of-test reset (a queued fault, a script).
      await scope.reset();
      await scope.outcome('running');
      return { testId: scope.testId, scope, fetch: scope.fetch, report: scope.outcome };
    },
    // A shared server hears of each test that runs (its outcome), not of those this run skips.
    testsNotRun: () => {},
    close: async () => {},
  };
}
