import { checkOptions } from '@parley/protocol/option-check';
import { getPath } from 'hono/utils/url';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startMswMode } from './adapters/msw-mode.js';
import { type RunningServer, startServer } from './adapters/start-server.js';
import { USE_OPTION_KEYS, type UseReferenceServerOptions } from './adapters/use-reference-server-options.js';
import { cassettePlan } from './adapters/vitest-cassette.js';
import { rerecordOf, testsNotRun } from './adapters/vitest-tests.js';
import { createReferenceServer, DEMO_USER, type ReferenceServer } from './create-reference-server.js';
import { assertNoViolations } from './proxy/proxy-violations-error.js';
import { CONTROL_TOKEN_HEADER } from './testing/control-access.js';
import { isControlPath } from './testing/control-routes.js';
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

export type { ClientInit, UseReferenceServerOptions } from './adapters/use-reference-server-options.js';
export type { CassetteUse } from './adapters/vitest-cassette.js';

/** What {@link useReferenceServer} returns; its members are usable inside tests and hooks. */
export interface ReferenceServerHandle<Client = never> {
  readonly mode: 'http' | 'msw';
  /** With a cassette: whether this run replays it, records it or records what it lacks; undefined without one. */
  readonly cassetteMode: 'replay' | 'record' | 'record-missing' | undefined;
  /** The base URL: give it to your client. */
  readonly url: string;
  /** The bearer token of the first user. */
  readonly token: string;
  /** The token of the control routes (`x-parley-control-token`); undefined with `control: false`. */
  readonly controlToken: string | undefined;
  /** The server in this process: `server.script(...)`, `server.faults.next(...)`, `server.journal`. */
  readonly server: ReferenceServer;
  /** The client built by `createClient` (the same one for every test of the file). */
  readonly client: Client;
  /**
   * `fetch` against the server: a relative path is resolved against {@link url}, the bearer token
   * is sent unless the request has an `authorization` header, and to the `/_parley/` routes the
   * control token unless the request has an `x-parley-control-token` header.
   */
  fetch(path: string | URL, init?: RequestInit): Promise<Response>;
}

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
  const { serverOptions, cassetteMode, per } = cassettePlan(givenServerOptions, cassette, process.env);
  const token = (serverOptions.users?.[0] ?? DEMO_USER).token;
  let state: { url: string; server: ReferenceServer; close(): Promise<void> } | undefined;
  let client: { value: Client } | undefined;

  const started = () => {
    if (state === undefined) {
      throw new Error('useReferenceServer: the server runs only inside tests and hooks of this file');
    }
    return state;
  };

  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's first parameter as the fixtures it uses
  beforeAll(async ({}, suite) => {
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
    state.server.cassette?.testsNotRun(testsNotRun(suite));
  });

  // Faults queued in a test and never taken, by test: the reset after it drops them.
  const untaken: string[] = [];
  let test: string | undefined;
  beforeEach((context) => {
    const name = context.task.fullTestName ?? context.task.name;
    test = name;
    const cassette = state?.server.cassette;
    if (cassette === undefined) return;
    cassette.beginTest(name, { rerecord: rerecordOf(context.task, per) });
    // While recording, what a failed test recorded is not written.
    context.onTestFailed(() => cassette.failTest(name));
  });
  const noteUntaken = (where: string) => {
    for (const fault of state?.server.faults.pending ?? []) untaken.push(`${describeFault(fault)} ${where}`);
  };
  if (resetAfterEach) {
    afterEach(() => {
      noteUntaken(`queued in test ${JSON.stringify(test)}`);
      state?.server.reset();
    });
  }

  afterAll(async () => {
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
  });

  return {
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
  };
}

/** `fault {"status":503} for POST /v1/messages/* (1 of it left)`. */
function describeFault(fault: ReferenceServer['faults']['pending'][number]): string {
  const { match, times, ...rest } = fault;
  const target =
    match?.method === undefined && match?.path === undefined
      ? ''
      : ` for ${match.method?.toUpperCase() ?? 'any method'} ${match.path === undefined ? 'any path' : String(match.path)}`;
  return `fault ${JSON.stringify(rest)}${target} (${times} left)`;
}

export type { CassetteMode } from './cassette/cassette-mode.js';
export type { ReceivedOptions } from './testing/received-matcher.js';
