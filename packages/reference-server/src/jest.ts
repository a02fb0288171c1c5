import { relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
import { jestOutcomes } from './adapters/jest-outcomes.js';
import { createRunnerHarness } from './adapters/runner-harness.js';
import type { ReferenceServerHandle, UseReferenceServerOptions } from './adapters/runner-options.js';
import type { JournalFilter } from './testing/journal.js';
import { type ReceivedOptions, receivedVerdict } from './testing/received-matcher.js';

expect.extend({
  /**
   * `expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/tools/response/*' }, { times: 2 })`:
   * the journal holds requests matching the filter (exactly `times` of them, when given).
   */
  toHaveReceived(received: unknown, filter: JournalFilter, options?: ReceivedOptions) {
    const { pass, message } = receivedVerdict(received, filter, options);
    return { pass, message: () => message(this.isNot ?? false) };
  },
});

/** The matcher's declaration, for `expect` from `@jest/globals`. */
declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    /**
     * The server's journal holds requests matching `filter` (method, path pattern, session, user):
     * at least one, or exactly `times`. The failure message lists the requests it received.
     *
     * @example
     * expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/tools/response/*' }, { times: 2 });
     */
    toHaveReceived(filter: JournalFilter, options?: ReceivedOptions): R;
  }
}

export type {
  ClientInit,
  ReferenceServerHandle,
  UseReferenceServerOptions,
} from './adapters/runner-options.js';
export type { CassetteUse } from './adapters/vitest-cassette.js';
export type { CassetteMode } from './cassette/cassette-mode.js';
export type { ReceivedOptions } from './testing/received-matcher.js';

/**
 * Runs a reference server for the tests of the file (or `describe` block) that calls it, under
 * Jest: started in `beforeAll`, reset in `afterEach`, closed in `afterAll`. The same options and
 * handle as the vitest helper; a test's cassette recordings are keyed by its
 * `expect.getState().currentTestName` (`describe it`, joined by spaces as Jest names tests). Under
 * the `jsdom` environment, use `@parley/reference-server/jest-environment-jsdom`, which keeps Node's
 * `fetch`, streams and encoders.
 *
 * @example
 * import { useReferenceServer } from '@parley/reference-server/jest';
 * import { Parley } from '@parley/sdk';
 *
 * const parley = useReferenceServer({ createClient: (init) => new Parley(init) });
 *
 * it('answers', async () => {
 *   parley.server.script([turn.text('Hi!')]);
 *   const { sessionId } = await parley.client.sessions.create();
 *   expect((await parley.client.messages.send(sessionId, { content: 'Hello' })).stopReason).toBe('end_turn');
 * });
 */
export function useReferenceServer<Client = never>(
  options: UseReferenceServerOptions<Client> = {},
): ReferenceServerHandle<Client> {
  const harness = createRunnerHarness({ runner: 'jest', verdict: 'file' }, options, process.env);
  const recording =
    harness.handle.cassetteMode === 'record' || harness.handle.cassetteMode === 'record-missing';
  beforeAll(() => {
    if (recording && jestOutcomes() === undefined) throw new Error(NEEDS_ENVIRONMENT);
    return harness.start();
  });
  beforeEach(async () => {
    const { currentTestName = '', testPath = '' } = expect.getState();
    await harness.beginTest({ name: currentTestName, file: relative(process.cwd(), testPath) || testPath });
  });
  // While recording, what a failed test recorded is not written: Parley's environment tells which failed.
  afterEach(() => {
    const failed = jestOutcomes()?.failed.has(expect.getState().currentTestName ?? '') === true;
    return harness.endTest(failed ? 'failed' : 'passed');
  });
  afterAll(() => harness.finish([...(jestOutcomes()?.notRun ?? [])]));
  return harness.handle;
}

const NEEDS_ENVIRONMENT =
  "useReferenceServer: recording a cassette under Jest needs Parley's test environment, which tells " +
  "which tests failed (a failed test's recording is never written): set testEnvironment: " +
  "'@parley/reference-server/jest-environment' (or '@parley/reference-server/jest-environment-jsdom') " +
  'in the Jest config, or /** @jest-environment @parley/reference-server/jest-environment */ atop the file';
