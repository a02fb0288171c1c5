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
  unusedError,
} from './adapters/playwright-handle.js';
import { type ParleyRouting, routeToParley } from './adapters/playwright-routing.js';
import { describeFault } from './adapters/runner-harness.js';
import { assertOwnRunnerOptions } from './adapters/runner-options.js';
import { type RunningServer, startServer } from './adapters/start-server.js';
import { inProcessScope, remoteScope, type ScopeAccess, testIdHeaderValue } from './adapters/test-scope.js';
import { type CassetteUse, cassettePlan } from './adapters/vitest-cassette.js';
import { DEMO_USER, type ReferenceServerOptions } from './create-reference-server.js';
import { ProxyViolationsError } from './proxy/proxy-violations-error.js';
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
   * file format), and `parley.server` is not there.
   */
  serverUrl?: string;
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
  // Per worker: what the test-scoped fixture needs besides the handle's data.
  const perWorker = new WeakMap<ParleyWorker, { per: 'file' | 'test'; shared: boolean }>();
  // The routing of each running test (by its id), set up by `parley` and installed by `context`.
  const routings = new Map<string, ParleyRouting>();
  return {
    parleyOptions: [defaults, { scope: 'worker', option: true }],
    parleyTestOptions: [testDefaults, { option: true }],
    parleyWorker: [
      async ({ parleyOptions }, use) => {
        assertOwnRunnerOptions('playwright', parleyOptions);
        const misplaced = TEST_OPTIONS.filter((name) => name in parleyOptions);
        if (misplaced.length > 0) {
          throw new TypeError(
            `@parley/reference-server/playwright: ${misplaced.join(', ')} belong${misplaced.length === 1 ? 's' : ''} ` +
              'to one test: test.use({ parleyTestOptions: { ... } }), not parleyOptions',
          );
        }
        const {
          baseUrl = DEFAULT_BASE_URL,
          serverUrl,
          controlToken = process.env.PARLEY_CONTROL_TOKEN,
          cassette,
          ...serverOptions
        } = parleyOptions;
        const token = (serverOptions.users?.[0] ?? DEMO_USER).token;
        if (serverUrl !== undefined) {
          if (controlToken === undefined) {
            throw new TypeError(
              "@parley/reference-server/playwright: serverUrl needs the shared server's controlToken (or PARLEY_CONTROL_TOKEN)",
            );
          }
          const worker = { url: serverUrl.replace(/\/+$/, ''), server: undefined, controlToken, token };
          perWorker.set(worker, { per: 'test', shared: true });
          await use(worker);
          return;
        }
        const plan = cassettePlan(serverOptions, cassette, process.env, 'playwright');
        const { allowedHosts } = plan.serverOptions;
        const host = new URL(baseUrl).host;
        const running: RunningServer = await startServer({
          ...plan.serverOptions,
          control: true,
          port: 0,
          // The page's requests keep the Host of the base URL on their way to the worker's port.
          allowedHosts: allowedHosts === true ? true : [...(allowedHosts ?? []), host],
        });
        const worker = {
          url: running.url,
          server: running.server,
          controlToken: running.server.controlToken ?? '',
          token,
        };
        perWorker.set(worker, { per: plan.per, shared: false });
        await use(worker);
        await running.close();
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
        const { shared, per } = perWorker.get(parleyWorker) ?? { shared: false, per: 'file' };
        const testId = testIdOf(testInfo);
        const baseUrl = (parleyOptions.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
        const server = parleyWorker.server;
        const scope: ScopeAccess =
          server === undefined
            ? remoteScope(parleyWorker.url, parleyWorker.controlToken, testId)
            : inProcessScope(server);
        if (server !== undefined && per === 'test') server.cassette?.beginTest(testId);
        const violationsBefore = (await scope.proxyReport())?.violations ?? 0;
        const routing: ParleyRouting = {
          baseUrl,
          serverUrl: parleyWorker.url,
          // A server of the worker's own answers buffered requests in process; it runs one test at a time.
          ...(server === undefined ? {} : { fetch: server.fetch }),
          headers: shared ? { [TEST_ID_HEADER]: testIdHeaderValue(testId) } : {},
        };
        routings.set(testInfo.testId, routing);
        await use(handleOf({ testId, baseUrl, worker: parleyWorker, scope, shared }));

        // After the test: what it left unused or the deployment broke fails it; a failed test
        // carries the journal and its page.
        const problems: string[] = [];
        for (const fault of await scope.pendingFaults()) {
          problems.push(`${describeFault(fault)} queued in test ${JSON.stringify(testId)}`);
        }
        if (server !== undefined && per === 'test') {
          for (const line of server.cassette?.describeUnused() ?? []) {
            if (line.includes(`(test ${JSON.stringify(testId)})`)) problems.push(`recording ${line}`);
          }
        }
        const report = await scope.proxyReport();
        const violated =
          report !== undefined &&
          report.violations > violationsBefore &&
          parleyTestOptions.failOnViolation !== false;
        const unusedFails = problems.length > 0 && parleyTestOptions.allowUnused !== true;
        const failed = testInfo.status !== testInfo.expectedStatus || violated || unusedFails;
        if (failed && parleyTestOptions.attachJournal !== false) await attachJournal(testInfo, scope);
        await scope.reset();
        routings.delete(testInfo.testId);
        if (violated) throw new ProxyViolationsError(report);
        if (unusedFails) throw unusedError(problems);
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
