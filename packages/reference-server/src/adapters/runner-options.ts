import type { ReferenceServer, ReferenceServerOptions } from '../create-reference-server.js';
import type { Script } from '../model/script-types.js';
import { SERVER_OPTION_KEYS } from '../reference-server-options.js';
import type { QueuedFault } from '../testing/fault-queue.js';
import type { JournalEntry, JournalFilter } from '../testing/journal.js';
import type { SessionSnapshot } from '../testing/session-snapshot.js';
import type { OptionKeys } from '../utils/check-options.js';
import type { CassetteUse } from './vitest-cassette.js';

/** What a client factory gets: where the server is and whose token to send. */
export interface ClientInit {
  /** `http://127.0.0.1:PORT` over HTTP, the msw base URL (default `http://parley.test`) in msw mode. */
  baseUrl: string;
  /** The bearer token of the first user (the demo user's by default). */
  token: string;
  /**
   * With a shared server only: a `fetch` that adds the running test's `x-parley-test-id` to every
   * request. Pass it on to your client (`new Parley(init)` does), or its requests land in no test's scope.
   */
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
}

/**
 * Options of `useReferenceServer` (vitest, Jest and node:test alike): every server option plus how
 * to run it.
 */
export interface UseReferenceServerOptions<Client = never> extends ReferenceServerOptions {
  /**
   * `'http'` (default): a real socket on a free port (`startServer`), reachable from any client,
   * also another process. `'msw'`: no socket; msw answers `fetch` calls to `baseUrl` in-process
   * (msw is an optional peer dependency: install it for this mode). `'shared'`: no server of its
   * own; the one at `serverUrl` or `PARLEY_BASE_URL`, each test in a scope of its own.
   */
  mode?: 'http' | 'msw' | 'shared';
  /**
   * A shared server (`parley-server run --control -- <command>`, one per CI job) instead of one per
   * file: every request of the client and every call of the handle carries the test's id in
   * `x-parley-test-id`, which gives each test its own script, faults, journal, sessions and
   * cassette key there. Default `PARLEY_BASE_URL` with `mode: 'shared'`. Its control token comes
   * from `controlToken` or `PARLEY_CONTROL_TOKEN`. A URL that does not answer fails the file.
   */
  serverUrl?: string | undefined;
  /** msw mode: the base URL the handlers answer under. Default `http://parley.test`. */
  baseUrl?: string;
  /** HTTP mode: interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Reset all state (sessions, journal, faults, model) after each test. Default true. */
  resetAfterEach?: boolean;
  /**
   * Builds the client `handle.client` returns, once per file. Pass your SDK's constructor, e.g.
   * `(init) => new Parley(init)`; the reference server does not depend on the SDK itself.
   */
  createClient?: (init: ClientInit) => Client;
  /** Control routes under `/_parley/` (journal, reset, faults, ...). Default true here. */
  control?: boolean;
  /**
   * Record and replay: a cassette file, or the file with its mode and settings. A path alone is
   * `'auto'`: recorded through `upstream` when it does not exist; replayed when it does, and with
   * `upstream` what it lacks is recorded too (`'record-missing'`).
   */
  cassette?: string | URL | CassetteUse;
  /**
   * After the file's tests, recordings of the cassette never replayed (of the tests that ran) and
   * faults queued but never taken fail the file, listed. `true` lets them pass. Default false.
   */
  allowUnused?: boolean;
  /**
   * As a checking proxy (`upstream`, or a cassette being recorded): after the file's tests, fail it
   * with a `ProxyViolationsError` listing each kind of protocol violation the deployment sent (and
   * the request id of the last one), even when every test passed. Default true; `false` leaves
   * them to `server.proxy.report()` and the journal.
   */
  failOnViolation?: boolean;
}

/**
 * Every key of {@link UseReferenceServerOptions}: the server's and the helper's own, each with its
 * type. A new option of the helper is one more line here (TypeScript fails until it is).
 */
export const USE_OPTION_KEYS = {
  ...SERVER_OPTION_KEYS,
  mode: 'string',
  serverUrl: 'string',
  baseUrl: 'string',
  host: 'string',
  resetAfterEach: 'boolean',
  createClient: 'function',
  control: 'boolean',
  cassette: true,
  allowUnused: 'boolean',
  failOnViolation: 'boolean',
} as const satisfies OptionKeys<UseReferenceServerOptions<unknown>>;

/** What `useReferenceServer` returns; its members are usable inside tests and hooks. */
/**
 * What every runner's handle gives the running test, on a server of its own or a shared one: its
 * script, its faults, its journal and its sessions (the vitest, Jest and node:test helpers' handle and
 * Playwright's `parley` fixture).
 */
export interface TestControls {
  /** Scripted turns for the running test: a list, rules or (own server only) a function. */
  script(script: Script): Promise<void>;
  readonly faults: {
    /** Queues a fault for the next matching request of the running test. */
    next(fault: QueuedFault): Promise<void>;
    /** Faults queued and not taken yet. */
    pending(): Promise<ReferenceServer['faults']['pending']>;
  };
  /** The running test's journal entries, oldest first. */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** The running test's sessions. */
  sessions(): Promise<SessionSnapshot[]>;
}

export interface ReferenceServerHandle<Client = never> extends TestControls {
  readonly mode: 'http' | 'msw' | 'shared';
  /** With a cassette: whether this run replays it, records it or records what it lacks; undefined without one. */
  readonly cassetteMode: 'replay' | 'record' | 'record-missing' | undefined;
  /** The base URL: give it to your client. */
  readonly url: string;
  /** The bearer token of the first user. */
  readonly token: string;
  /** The token of the control routes (`x-parley-control-token`); undefined with `control: false`. */
  readonly controlToken: string | undefined;
  /**
   * The server in this process: `server.script(...)`, `server.faults.next(...)`, `server.journal`.
   * With a shared server it throws: use {@link script}, {@link faults} and {@link journal}.
   */
  readonly server: ReferenceServer;
  /** The running test's `x-parley-test-id` with a shared server (its full name otherwise); undefined between tests. */
  readonly testId: string | undefined;
  /** The client built by `createClient` (the same one for every test of the file). */
  readonly client: Client;
  /**
   * `fetch` against the server: a relative path is resolved against {@link url}, the bearer token
   * is sent unless the request has an `authorization` header, and to the `/_parley/` routes the
   * control token unless the request has an `x-parley-control-token` header; with a shared server,
   * the running test's id.
   */
  fetch(path: string | URL, init?: RequestInit): Promise<Response>;
}

/** A test runner a helper of this package serves, and the entry that holds its helper. */
export type Runner = 'vitest' | 'jest' | 'node:test' | 'playwright';

/** The package entry of each runner's helper. */
export const RUNNER_ENTRIES: Readonly<Record<Runner, string>> = {
  vitest: '@parley/reference-server/vitest',
  jest: '@parley/reference-server/jest',
  'node:test': '@parley/reference-server/node-test',
  playwright: '@parley/reference-server/playwright',
};

/** Options only the Playwright fixture takes. */
export const PLAYWRIGHT_ONLY_OPTIONS = ['blockServiceWorkers', 'attachJournal'] as const;

/** Options only `useReferenceServer` (vitest, Jest, node:test) takes: the fixture routes a page instead. */
export const USE_REFERENCE_SERVER_ONLY_OPTIONS = ['mode', 'host', 'resetAfterEach', 'createClient'] as const;

/**
 * Throws when `options` hold an option of another runner's helper, naming the entry that takes it:
 * `useReferenceServer` (vitest, Jest, node:test) and the Playwright fixture differ in a few.
 */
export function assertOwnRunnerOptions(runner: Runner, options: object): void {
  const foreign: readonly string[] =
    runner === 'playwright' ? USE_REFERENCE_SERVER_ONLY_OPTIONS : PLAYWRIGHT_ONLY_OPTIONS;
  const given = foreign.filter((name) => name in options);
  if (given.length === 0) return;
  const where =
    runner === 'playwright'
      ? `useReferenceServer, from ${RUNNER_ENTRIES.vitest}, ${RUNNER_ENTRIES.jest} or ${RUNNER_ENTRIES['node:test']}`
      : `the Playwright fixture, from ${RUNNER_ENTRIES.playwright}`;
  const names = given.join(', ');
  throw new TypeError(
    `${RUNNER_ENTRIES[runner]}: ${names} ${given.length === 1 ? 'is an option' : 'are options'} of ${where}, ` +
      `not of this ${runner} helper`,
  );
}
