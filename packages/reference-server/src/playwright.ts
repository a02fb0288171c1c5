import {
  test as base,
  type Fixtures,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestInfo,
} from '@playwright/test';
import { type ParleyRouting, routeToParley } from './adapters/playwright-routing.js';
import { describeFault } from './adapters/runner-harness.js';
import { assertOwnRunnerOptions } from './adapters/runner-options.js';
import { type RunningServer, startServer } from './adapters/start-server.js';
import { inProcessScope, remoteScope, type ScopeAccess, testIdHeaderValue } from './adapters/test-scope.js';
import { type CassetteUse, cassettePlan } from './adapters/vitest-cassette.js';
import { DEMO_USER, type ReferenceServer, type ReferenceServerOptions } from './create-reference-server.js';
import type { Script } from './model/scripted-model.js';
import { ProxyViolationsError } from './proxy/proxy-violations-error.js';
import { CONTROL_TOKEN_HEADER } from './testing/control-access.js';
import type { QueuedFault } from './testing/fault-queue.js';
import type { JournalEntry, JournalFilter } from './testing/journal.js';
import { journalSnapshotPage } from './testing/journal-snapshot-page.js';
import type { SessionSnapshot } from './testing/session-snapshot.js';
import { TEST_ID_HEADER } from './utils/test-id.js';

export { expect } from '@playwright/test';
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

/** The worker's server: its own, or the shared one. */
export interface ParleyWorker {
  /** Where it listens: `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The server in the worker's process; undefined for a shared server. */
  readonly server: ReferenceServer | undefined;
  readonly controlToken: string;
  /** The first user's bearer token. */
  readonly token: string;
}

/** What a test gets as `parley`: its scope on the server, and what the page's requests reach. */
export interface ParleyHandle {
  /** The test's id: the project, file, describe blocks and title, joined by ` > `. */
  readonly testId: string;
  /** The URL the server listens at. */
  readonly url: string;
  /** The base URL the page's requests are routed from. */
  readonly baseUrl: string;
  /** The first user's bearer token. */
  readonly token: string;
  /** The server in this worker (`setModel`, `clock`, ...): absent with a shared server, where it throws. */
  readonly server: ReferenceServer;
  /** Scripted turns for this test: a list, rules or (own server only) a function. */
  script(script: Script): Promise<void>;
  readonly faults: {
    /** Queues a fault for the next matching request of this test. */
    next(fault: QueuedFault): Promise<void>;
    /** Faults queued and not taken yet. */
    pending(): Promise<ReferenceServer['faults']['pending']>;
  };
  /** This test's journal entries, oldest first. */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** This test's sessions. */
  sessions(): Promise<SessionSnapshot[]>;
  /** `fetch` against the server, with the bearer token, the control token on `/_parley/` paths and the test's id. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
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

/** The test's id: the project (when named), the file, the describe blocks and the title. */
function testIdOf(testInfo: TestInfo): string {
  return [testInfo.project.name, ...testInfo.titlePath].filter((part) => part !== '').join(' > ');
}

function handleOf(options: {
  testId: string;
  baseUrl: string;
  worker: ParleyWorker;
  scope: ScopeAccess;
  shared: boolean;
}): ParleyHandle {
  const { testId, baseUrl, worker, scope, shared } = options;
  return {
    testId,
    url: worker.url,
    baseUrl,
    token: worker.token,
    get server(): ReferenceServer {
      if (worker.server === undefined) {
        throw new Error(
          'parley.server: the tests run against a shared server (serverUrl), not one in this worker: ' +
            'use parley.script, parley.faults and parley.journal',
        );
      }
      return worker.server;
    },
    script: (script) => scope.script(script),
    faults: { next: (fault) => scope.queueFault(fault), pending: () => scope.pendingFaults() },
    journal: (filter) => scope.journal(filter),
    sessions: () => scope.sessions(),
    fetch(path, init = {}) {
      const url = new URL(path, `${worker.url}/`);
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${worker.token}`);
      if (url.pathname.startsWith('/_parley') && !headers.has(CONTROL_TOKEN_HEADER)) {
        headers.set(CONTROL_TOKEN_HEADER, worker.controlToken);
      }
      if (shared) headers.set(TEST_ID_HEADER, testIdHeaderValue(testId));
      return fetch(url, { ...init, headers });
    },
  };
}

/** Attaches the test's journal as JSON and as the journal page, readable without the server. */
async function attachJournal(testInfo: TestInfo, scope: ScopeAccess): Promise<void> {
  const [entries, sessions] = await Promise.all([scope.journal(), scope.sessions()]);
  await testInfo.attach('parley-journal.json', {
    body: JSON.stringify({ entries, sessions }, null, 2),
    contentType: 'application/json',
  });
  await testInfo.attach('parley-journal.html', {
    body: journalSnapshotPage({ entries, sessions }),
    contentType: 'text/html',
  });
}

function unusedError(lines: readonly string[]): Error {
  return new Error(
    `@parley/reference-server/playwright: ${lines.length} thing${lines.length === 1 ? ' was' : 's were'} never used ` +
      `(pass allowUnused: true to let this pass):\n  ${lines.join('\n  ')}`,
  );
}
