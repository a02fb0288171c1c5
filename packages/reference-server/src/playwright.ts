import {
  test as base,
  type Fixtures,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
} from '@playwright/test';
import {
  attachJournal,
  handleOf,
  type ParleyHandle,
  type ParleyWorker,
  testIdOf,
} from './adapters/playwright-handle.js';
import { type ParleyRouting, routeToParley } from './adapters/playwright-routing.js';
import { createRunnerHarness, type RunnerHarness } from './adapters/runner-harness.js';
import { assertOwnRunnerOptions } from './adapters/runner-options.js';
import type { ScopeAccess } from './adapters/test-scope.js';
import type { CassetteUse } from './adapters/vitest-cassette.js';
import type { ReferenceServerOptions } from './create-reference-server.js';
import { TEST_ID_HEADER } from './utils/test-id.js';

export { expect } from '@playwright/test';
export type { ParleyHandle, ParleyWorker } from './adapters/playwright-handle.js';
export type { CassetteUse } from './adapters/vitest-cassette.js';
export { TEST_ID_HEADER } from './utils/test-id.js';

/** Options of the Playwright fixture (`test.use({ parleyOptions: { ... } })`): every server option plus these. */
export interface ParleyFixtureOptions extends ReferenceServerOptions {
  /**
   * The base URL your app calls Parley at, as the page sees it: its requests under it are answered
   * by the reference server. Default `http://parley.test`.
   */
  baseUrl?: string;
  /**
   * A shared server (`parley-server --control`, one per CI job or machine) instead of one per
   * worker: every request and control call carries the test's id in `x-parley-test-id`, which
   * scopes scripts, faults, the journal and sessions to the test. Scripts are then data (the script
   * file format), and `parley.server` is not there. `serverUrl: process.env.PARLEY_BASE_URL` that is
   * unset fails, naming `parley-server run`: never a server per worker instead.
   */
  serverUrl?: string | undefined;
  /** The shared server's control token. Default: `PARLEY_CONTROL_TOKEN` from the environment. */
  controlToken?: string;
  /** Record and replay: as `useReferenceServer`'s, with `per: 'test'` (keyed by the test's id). */
  cassette?: string | URL | CassetteUse;
}

/** Options of one test (`test.use({ parleyTestOptions: { ... } })`, also in a `describe`). */
export interface ParleyTestOptions {
  /** Blocks the app's own service workers, which would answer the page's requests before the fixture sees them. Default false. */
  blockServiceWorkers?: boolean;
  /** A failed test carries the journal (`parley-journal.json`) and its page (`parley-journal.html`). Default true. */
  attachJournal?: boolean;
  /** Recordings of the test never replayed and faults it queued but never took fail it. `true` lets them pass. Default false. */
  allowUnused?: boolean;
  /** As a checking proxy: a test during which the deployment broke the protocol fails. Default true. */
  failOnViolation?: boolean;
}

export interface ParleyTestFixtures {
  parley: ParleyHandle;
  parleyTestOptions: ParleyTestOptions;
}

export interface ParleyWorkerFixtures {
  parleyOptions: ParleyFixtureOptions;
  parleyWorker: ParleyWorker;
}

type BaseTestArgs = PlaywrightTestArgs & PlaywrightTestOptions;
type BaseWorkerArgs = PlaywrightWorkerArgs & PlaywrightWorkerOptions;

const DEFAULT_BASE_URL = 'http://parley.test';
const TEST_OPTIONS = ['blockServiceWorkers', 'attachJournal', 'allowUnused', 'failOnViolation'] as const;

/**
 * The fixtures, for `base.extend(parleyFixtures({ ... }))` on a `test` of your own; the options
 * given are the defaults of `parleyOptions`.
 *
 * @example
 * import { test as base } from '@playwright/test';
 * import { parleyFixtures } from '@parley/reference-server/playwright';
 *
 * export const test = base.extend(parleyFixtures({ baseUrl: 'https://parley.example.com' }));
 */
export function parleyFixtures(
  defaults: ParleyFixtureOptions = {},
  testDefaults: ParleyTestOptions = {},
): Fixtures<ParleyTestFixtures, ParleyWorkerFixtures, BaseTestArgs, BaseWorkerArgs> {
  // Per worker: the harness every runner's helper shares.
  const harnesses = new WeakMap<ParleyWorker, RunnerHarness<never>>();
  // The routing of each running test (by its id), set up by `parley` and installed by `context`.
  const routings = new Map<string, ParleyRouting>();
  return {
    parleyOptions: [defaults, { scope: 'worker', option: true }],
    parleyTestOptions: [testDefaults, { option: true }],
    parleyWorker: [
      async ({ parleyOptions }, use) => {
        const misplaced = TEST_OPTIONS.filter((name) => name in parleyOptions);
        if (misplaced.length > 0) {
          throw new TypeError(
            `@parley/reference-server/playwright: ${misplaced.join(', ')} belong${misplaced.length === 1 ? 's' : ''} ` +
              'to one test: test.use({ parleyTestOptions: { ... } }), not parleyOptions',
          );
        }
        const { baseUrl = DEFAULT_BASE_URL, ...options } = parleyOptions;
        const harness = createRunnerHarness<never>(
          { runner: 'playwright', verdict: 'test', allowedHost: new URL(baseUrl).host },
          options,
          process.env,
        );
        await harness.start();
        const running = harness.running;
        if (running === undefined)
          throw new Error('@parley/reference-server/playwright: the server did not start');
        const worker: ParleyWorker = {
          url: running.url,
          server: running.server,
          controlToken: running.shared?.controlToken ?? running.server?.controlToken ?? '',
          token: harness.handle.token,
        };
        harnesses.set(worker, harness);
        await use(worker);
        await harness.finish();
      },
      { scope: 'worker' },
    ],
    // The page's requests to Parley are routed when a test uses the browser: a test that does not
    // launches none.
    context: async ({ context, parley }, use, testInfo) => {
      const routing = routings.get(testInfo.testId);
      if (routing !== undefined && parley.baseUrl === routing.baseUrl) await routeToParley(context, routing);
      await use(context);
    },
    serviceWorkers: async ({ serviceWorkers, parleyTestOptions }, use) => {
      await use(parleyTestOptions.blockServiceWorkers === true ? 'block' : serviceWorkers);
    },
    parley: [
      async ({ parleyWorker, parleyOptions, parleyTestOptions }, use, testInfo) => {
        assertOwnRunnerOptions('playwright', parleyTestOptions);
        const harness = harnesses.get(parleyWorker);
        if (harness === undefined)
          throw new Error('@parley/reference-server/playwright: no server in this worker');
        const baseUrl = (parleyOptions.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
        // Repeats (--repeat-each) and retries are tests of their own on a shared server.
        const test = await harness.beginTest({
          name: testIdOf(testInfo),
          attempt: { repeat: testInfo.repeatEachIndex, retry: testInfo.retry },
        });
        const server = parleyWorker.server;
        const shared = server === undefined;
        routings.set(testInfo.testId, {
          baseUrl,
          serverUrl: parleyWorker.url,
          // A server of the worker's own answers buffered requests in process; it runs one test at a time.
          ...(shared ? {} : { fetch: server.fetch }),
          headers: shared ? { [TEST_ID_HEADER]: test.testId } : {},
        });
        try {
          await use(
            handleOf({ testId: test.testId, baseUrl, worker: parleyWorker, scope: test.scope, shared }),
          );
        } finally {
          routings.delete(testInfo.testId);
        }
        // After the test, through the harness: what it left unused or the deployment broke fails it;
        // a failed test carries the journal and its page, and its recording is not written.
        const { status, expectedStatus } = testInfo;
        await harness.endTest(
          status === 'skipped' ? 'skipped' : status === expectedStatus ? 'passed' : 'failed',
          {
            ...(parleyTestOptions.attachJournal === false
              ? {}
              : { attach: (scope: ScopeAccess) => attachJournal(testInfo, scope) }),
            allowUnused: parleyTestOptions.allowUnused === true,
            failOnViolation: parleyTestOptions.failOnViolation !== false,
          },
        );
      },
      { auto: true },
    ],
  };
}

/**
 * `test` of `@playwright/test` with the fixtures: a reference server per worker, and `parley` in
 * every test. Configure it with `test.use({ parleyOptions: { ... } })`.
 *
 * @example
 * import { expect, test } from '@parley/reference-server/playwright';
 *
 * test('shows the reply', async ({ page, parley }) => {
 *   await parley.script([turn.text('Hello!')]);
 *   await page.goto('/');
 *   await expect(page.getByTestId('reply')).toHaveText('Hello!');
 * });
 */
export const test = base.extend<ParleyTestFixtures, ParleyWorkerFixtures>(parleyFixtures());
