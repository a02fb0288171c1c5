import { relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createRunnerHarness } from './adapters/runner-harness.js';
import type { ReferenceServerHandle, UseReferenceServerOptions } from './adapters/runner-options.js';
import { rerecordOf, testsNotRun } from './adapters/vitest-tests.js';
import type { JournalFilter } from './testing/journal.js';
import { type ReceivedOptions, receivedVerdict } from './testing/received-matcher.js';

expect.extend({
  /**
   * `expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/tools/response/*' }, { times: 2 })`:
   * the journal holds requests matching the filter (exactly `times` of them, when given).
   */
  toHaveReceived(received: unknown, filter: JournalFilter, options?: ReceivedOptions) {
    const { pass, message } = receivedVerdict(received, filter, options);
    return { pass, message: () => message(this.isNot) };
  },
});

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Matchers<T = any>; a merged declaration must match it
  interface Matchers<T = any> {
    /**
     * The server's journal holds requests matching `filter` (method, path pattern, session, user):
     * at least one, or exactly `times`. The failure message lists the requests it received.
     *
     * @example
     * expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/tools/response/*' }, { times: 2 });
     */
    toHaveReceived(filter: JournalFilter, options?: ReceivedOptions): void;
  }
}

export type {
  ClientInit,
  ReferenceServerHandle,
  UseReferenceServerOptions,
} from './adapters/runner-options.js';
export type { CassetteUse } from './adapters/vitest-cassette.js';

/**
 * Runs a reference server for the tests of the file (or `describe` block) that calls it: started
 * before all tests (HTTP on a free port, or msw), reset after each, closed after all.
 *
 * @example
 * import { Parley } from '@parley/sdk';
 * import { useReferenceServer } from '@parley/reference-server/vitest';
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
  const harness = createRunnerHarness({ runner: 'vitest', verdict: 'file' }, options, process.env);
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's first parameter as the fixtures it uses
  beforeAll(({}, suite) => harness.start(testsNotRun(suite)));
  beforeEach(async ({ task }) => {
    const file = relative(process.cwd(), task.file.filepath) || task.file.filepath;
    await harness.beginTest({ name: task.fullTestName, file, rerecord: rerecordOf(task, harness.per) });
  });
  // While recording, what a failed or skipped test recorded is not written.
  afterEach(({ task }) =>
    harness.endTest(
      task.result?.state === 'fail' ? 'failed' : task.result?.state === 'skip' ? 'skipped' : 'passed',
    ),
  );
  afterAll(() => harness.finish());
  return harness.handle;
}

export type { CassetteMode } from './cassette/cassette-mode.js';
export type { ReceivedOptions } from './testing/received-matcher.js';
