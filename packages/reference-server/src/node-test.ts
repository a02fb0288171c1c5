import { relative } from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import { createRunnerHarness } from './adapters/runner-harness.js';
import type { ReferenceServerHandle, UseReferenceServerOptions } from './adapters/runner-options.js';
import type { JournalFilter } from './testing/journal.js';
import { type ReceivedOptions, receivedVerdict } from './testing/received-matcher.js';

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
 * `node --test`: started in `before`, reset in `afterEach`, closed in `after`. The same options and
 * handle as the vitest helper; a test's cassette recordings are keyed by its `t.fullName`
 * (`outer > inner`).
 *
 * @example
 * import { it } from 'node:test';
 * import { useReferenceServer } from '@parley/reference-server/node-test';
 * import { Parley } from '@parley/sdk';
 *
 * const parley = useReferenceServer({ createClient: (init) => new Parley(init) });
 *
 * it('answers', async () => {
 *   parley.server.script([turn.text('Hi!')]);
 *   const { sessionId } = await parley.client.sessions.create();
 *   assert.equal((await parley.client.messages.send(sessionId, { content: 'Hello' })).stopReason, 'end_turn');
 * });
 */
export function useReferenceServer<Client = never>(
  options: UseReferenceServerOptions<Client> = {},
): ReferenceServerHandle<Client> {
  const harness = createRunnerHarness({ runner: 'node:test', verdict: 'file' }, options, process.env);
  // The file that called the helper: node:test runs one file per process.
  const file = relative(process.cwd(), process.argv[1] ?? '') || 'node:test';
  before(() => harness.start());
  beforeEach(async (t) => {
    await harness.beginTest({ name: 'fullName' in t ? t.fullName : t.name, file });
  });
  // While recording, what a failed test recorded is not written: `t.passed` (Node 20.12 and later,
  // which @types/node of Node 20 does not declare yet) is false after a failure.
  afterEach((t) => harness.endTest((t as { passed?: boolean }).passed === false ? 'failed' : 'passed'));
  after(() => harness.finish());
  return harness.handle;
}

/**
 * node:test has no matchers: `toHaveReceived` as an assertion. Throws an `AssertionError`-like
 * `Error` unless the server's journal holds requests matching `filter` (at least one, or exactly
 * `times`); the message lists the requests it received.
 *
 * @example
 * assertReceived(parley.server, { method: 'POST', path: '/v1/tools/response/*' }, { times: 2 });
 */
export function assertReceived(received: unknown, filter: JournalFilter, options?: ReceivedOptions): void {
  const { pass, message } = receivedVerdict(received, filter, options);
  if (!pass) throw new Error(message(false));
}
