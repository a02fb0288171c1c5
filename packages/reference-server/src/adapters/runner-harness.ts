import { getPath } from 'hono/utils/url';
import { createReferenceServer, DEMO_USER, type ReferenceServer } from '../create-reference-server.js';
import { assertNoViolations } from '../proxy/proxy-violations-error.js';
import { CONTROL_TOKEN_HEADER } from '../testing/control-access.js';
import { isControlPath } from '../testing/control-routes.js';
import { checkOptions } from '../utils/check-options.js';
import { startMswMode } from './msw-mode.js';
import {
  assertOwnRunnerOptions,
  type ReferenceServerHandle,
  type Runner,
  USE_OPTION_KEYS,
  type UseReferenceServerOptions,
} from './runner-options.js';
import { type RunningServer, startServer } from './start-server.js';
import { cassettePlan } from './vitest-cassette.js';

/**
 * What `useReferenceServer` does, whichever runner calls it: the runner's entry registers its hooks
 * and calls {@link start} before all tests, {@link beginTest} and {@link endTest} around each, and
 * {@link finish} after all; {@link handle} is what the user gets.
 */
export interface RunnerHarness<Client> {
  readonly handle: ReferenceServerHandle<Client>;
  /** Whether {@link endTest} should run after each test (`resetAfterEach`). */
  readonly resetAfterEach: boolean;
  /** How the cassette keys its recordings: by file, or by test. */
  readonly per: 'file' | 'test';
  /** Starts the server; `notRun`: the full names of the tests this run skips (`-t`, `.skip`, `.only`). */
  start(notRun?: readonly string[]): Promise<void>;
  /**
   * A test starts: `name` is its full name (`describe > it`), the key of its cassette recordings;
   * `rerecord` the command that records it again, named when a replay mismatches.
   */
  beginTest(name: string, rerecord?: { command: string; oneTest: boolean }): void;
  /** The test failed: while recording, what it recorded is not written. */
  failTest(name: string): void;
  /** The test ended: faults it left untaken are noted, and the server is reset. */
  endTest(): void;
  /** After all tests: closes the server, then throws on protocol violations or unused things. */
  finish(): Promise<void>;
}

/**
 * The runner-neutral part of `useReferenceServer`. Options are checked here, when the helper is
 * called: a bad cassette setting, or an option of another runner's helper, fails at once.
 */
export function createRunnerHarness<Client>(
  runner: Exclude<Runner, 'playwright'>,
  options: UseReferenceServerOptions<Client>,
  env: Readonly<Record<string, string | undefined>>,
): RunnerHarness<Client> {
  assertOwnRunnerOptions(runner, options);
  checkOptions(options, USE_OPTION_KEYS, 'useReferenceServer()');
  const {
    mode = 'http',
    baseUrl = 'http://parley.test',
    host,
    resetAfterEach = true,
    createClient,
    control = true,
    cassette,
    allowUnused = false,
    failOnViolation = true,
    ...givenServerOptions
  } = options;
  const { serverOptions, cassetteMode, per } = cassettePlan(givenServerOptions, cassette, env, runner);
  const token = (serverOptions.users?.[0] ?? DEMO_USER).token;
  let state: { url: string; server: ReferenceServer; close(): Promise<void> } | undefined;
  let client: { value: Client } | undefined;
  // Faults queued in a test and never taken, by test: the reset after it drops them.
  const untaken: string[] = [];
  let test: string | undefined;

  const started = () => {
    if (state === undefined) {
      throw new Error('useReferenceServer: the server runs only inside tests and hooks of this file');
    }
    return state;
  };
  const noteUntaken = (where: string) => {
    for (const fault of state?.server.faults.pending ?? []) untaken.push(`${describeFault(fault)} ${where}`);
  };

  return {
    resetAfterEach,
    per,
    async start(notRun = []) {
      if (mode === 'msw') {
        const server = createReferenceServer({ ...serverOptions, control });
        const url = baseUrl.replace(/\/+$/, '');
        const mock = await startMswMode(server, url);
        state = {
          url,
          server,
          close: async () => {
            mock.close();
            // Aborts running replies, closes providers and, when recording, writes the cassette.
            await server.close();
          },
        };
      } else {
        const running: RunningServer = await startServer({
          ...serverOptions,
          control,
          port: 0,
          ...(host === undefined ? {} : { host }),
        });
        state = { url: running.url, server: running.server, close: () => running.close() };
      }
      state.server.cassette?.testsNotRun(notRun);
    },
    beginTest(name, rerecord) {
      test = name;
      state?.server.cassette?.beginTest(name, rerecord === undefined ? undefined : { rerecord });
    },
    failTest(name) {
      state?.server.cassette?.failTest(name);
    },
    endTest() {
      noteUntaken(`queued in test ${JSON.stringify(test)}`);
      state?.server.reset();
    },
    async finish() {
      if (!resetAfterEach) noteUntaken('still queued');
      // A file that failed on a replay mismatch was told its fix: what it left unused follows from it.
      const mismatched = (state?.server.cassette?.mismatches() ?? 0) > 0;
      const unused = state?.server.cassette?.describeUnused() ?? [];
      const proxy = state?.server.proxy;
      await state?.close();
      state = undefined;
      client = undefined;
      // After every request ended: the deployment's answers broke the protocol, the file fails.
      if (proxy !== undefined && failOnViolation) assertNoViolations(proxy.report());
      const lines = [...unused.map((line) => `recording ${line}`), ...untaken];
      if (allowUnused || mismatched || lines.length === 0) return;
      throw new Error(
        `useReferenceServer: ${lines.length} thing${lines.length === 1 ? ' was' : 's were'} never used ` +
          `(pass allowUnused: true to let this pass):\n  ${lines.join('\n  ')}`,
      );
    },
    handle: {
      mode,
      cassetteMode,
      get url() {
        return started().url;
      },
      token,
      get controlToken() {
        return started().server.controlToken;
      },
      get server() {
        return started().server;
      },
      get client(): Client {
        const { url } = started();
        if (createClient === undefined) {
          throw new Error('useReferenceServer: pass createClient, e.g. (init) => new Parley(init)');
        }
        client ??= { value: createClient({ baseUrl: url, token }) };
        return client.value;
      },
      fetch(path, init = {}) {
        const { url: base, server } = started();
        const url = new URL(path, `${base}/`);
        const headers = new Headers(init.headers);
        if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
        if (
          server.controlToken !== undefined &&
          // Read as the server's dispatch reads it (percent-decoded, like Hono's routers).
          isControlPath(getPath(new Request(url))) &&
          !headers.has(CONTROL_TOKEN_HEADER)
        ) {
          headers.set(CONTROL_TOKEN_HEADER, server.controlToken);
        }
        return fetch(url, { ...init, headers });
      },
    },
  };
}

/** `fault {"status":503} for POST /v1/messages/* (1 of it left)`. */
export function describeFault(fault: ReferenceServer['faults']['pending'][number]): string {
  const { match, times, ...rest } = fault;
  const target =
    match?.method === undefined && match?.path === undefined
      ? ''
      : ` for ${match.method?.toUpperCase() ?? 'any method'} ${match.path === undefined ? 'any path' : String(match.path)}`;
  return `fault ${JSON.stringify(rest)}${target} (${times} left)`;
}
