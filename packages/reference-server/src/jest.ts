import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
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
  const harness = createRunnerHarness('jest', options, process.env);
  beforeAll(() => harness.start());
  beforeEach(() => harness.beginTest(expect.getState().currentTestName ?? ''));
  if (harness.resetAfterEach) afterEach(() => harness.endTest());
  afterAll(() => harness.finish());
  return harness.handle;
}
