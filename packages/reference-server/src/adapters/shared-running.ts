import type { Running } from './own-server.js';
import type { SharedServer } from './shared-server.js';

/**
 * A shared server as a harness's server: each test runs in a clean scope of its own, and tells the
 * server's cassette that it began and how it ended (a recording keeps a test that never ended).
 */
export function sharedRunning(shared: SharedServer): Running {
  return {
    url: shared.url,
    server: undefined,
    shared,
    async begin(test, attempt) {
      const scope = shared.testScope(
        test.file === undefined ? test.name : `${test.file} > ${test.name}`,
        attempt,
      );
      // A clean scope for this run: a server that outlives one test run keeps what an earlier run
      // with this id left when it was killed before its end-of-test reset (a queued fault, a script).
      await scope.reset();
      await scope.outcome('running');
      return { testId: scope.testId, scope, fetch: scope.fetch, report: scope.outcome };
    },
    close: async () => {},
  };
}
