import { DEMO_USER } from '../create-reference-server.js';
import { CONTROL_TOKEN_HEADER } from '../testing/control-access.js';
import { wrongValue } from '../utils/check-options.js';
import { TEST_ID_HEADER } from '../utils/test-id.js';
import type { TestStatus } from '../utils/test-status.js';
import { type TestAttempt, testIdHeaderValue } from './test-id-value.js';
import { remoteScope, type ScopeAccess } from './test-scope.js';

/** Where a shared server is and how to reach it: `connectSharedServer`'s options. */
export interface SharedServerOptions {
  /** Its base URL, `http://127.0.0.1:4010` (what `parley-server run` puts in `PARLEY_BASE_URL`). */
  baseUrl: string;
  /** Its control token (`PARLEY_CONTROL_TOKEN`): the server runs with `--control`. */
  controlToken: string;
  /** The bearer token a test's client sends. Default the demo user's, `parley-demo-token`. */
  token?: string;
  /** Names the caller in errors. Default `connectSharedServer`. */
  caller?: string;
  /**
   * The `fetch` every request goes through: the health check, the control calls and the scopes'
   * `fetch`. Default the global one, whose failures are explained (the server cannot be reached, how
   * to start one); a given one's rejections reach the caller as they are, so a tool that knows the
   * server (a container module) names it in its own errors and can bound a call's wait.
   */
  fetch?: typeof fetch;
  /**
   * How long the health check (`GET /_parley/health`, answer and body) may take, in ms. Default
   * {@link SHARED_SERVER_HEALTH_TIMEOUT_MS} (10 s). A server that takes the connection but does not
   * answer in time fails the connection with an error naming its URL and this limit, instead of
   * holding the test run; the request is aborted, so no connection is left open.
   */
  healthTimeoutMs?: number;
}

/** `connectSharedServer`'s default `healthTimeoutMs`: 10 s. */
export const SHARED_SERVER_HEALTH_TIMEOUT_MS = 10_000;

/** One test's scope on a shared server: its id, the headers that reach it, and its control calls. */
export interface SharedTestScope extends ScopeAccess {
  /** The `x-parley-test-id` value: the test's name, encoded one to one, with its run. */
  readonly testId: string;
  /** `{ 'x-parley-test-id': testId }`: send it with every request of the test. */
  readonly headers: Readonly<Record<string, string>>;
  /** `fetch` with the test's id, the bearer token, and the control token on `/_parley/` paths. */
  fetch(path: string | URL, init?: RequestInit): Promise<Response>;
  /**
   * Tells the server's cassette the test began (`'running'`) or how it ended
   * (`POST /_parley/cassette/outcome`): a recording per test is written only for a test that ended
   * `'passed'`; a failed, skipped or never-ended one keeps the recording the file holds.
   */
  outcome(status: TestStatus): Promise<void>;
}

/** A reference server shared by many runners (`parley-server run --control`), checked reachable. */
export interface SharedServer {
  readonly url: string;
  readonly token: string;
  readonly controlToken: string;
  /** The scope of the test named `name` (its full name, with its file), run `attempt`. */
  testScope(name: string, attempt?: TestAttempt): SharedTestScope;
}

/** How to start a shared server, named in every error about one. */
export const SHARED_SERVER_HINT =
  'start one around the test command with `npx parley-server run --control -- <command>`, which sets ' +
  'PARLEY_BASE_URL and PARLEY_CONTROL_TOKEN';

/**
 * Connects to a shared reference server and checks it answers its control routes, so a test run
 * fails at once, saying what to do, when the server is not there (never a bare `fetch failed`).
 * The test scopes it gives are what the runner helpers and the Playwright fixture use.
 *
 * @example
 * const shared = await connectSharedServer({ baseUrl: process.env.PARLEY_BASE_URL!, controlToken });
 * const scope = shared.testScope('chat.test.ts > answers');
 * await scope.script([turn.text('Hello!')]);
 * const client = new Parley({ baseUrl: shared.url, token: shared.token, headers: scope.headers });
 * // ... the test ...
 * await scope.reset();
 */
export async function connectSharedServer(options: SharedServerOptions): Promise<SharedServer> {
  const { controlToken, token = DEMO_USER.token, caller = 'connectSharedServer' } = options;
  const fetchImpl = options.fetch ?? fetch;
  let url: string;
  try {
    url = new URL(options.baseUrl).href.replace(/\/+$/, '');
  } catch {
    throw new TypeError(
      `${caller}: the shared server's URL ${JSON.stringify(options.baseUrl)} (serverUrl or PARLEY_BASE_URL) ` +
        'is not a URL',
    );
  }
  const timeoutMs = options.healthTimeoutMs ?? SHARED_SERVER_HEALTH_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw wrongValue(caller, 'healthTimeoutMs', 'a positive number of ms', timeoutMs);
  }
  // A given fetch's rejections are its own: passed on as they are.
  const explain = (error: unknown): Error =>
    options.fetch === undefined ? unreachable(caller, url, error) : (error as Error);
  const response = await checkHealth(url, controlToken, fetchImpl, timeoutMs, (error, timedOut) =>
    timedOut
      ? new Error(
          `${caller}: the shared server at ${url} (serverUrl or PARLEY_BASE_URL) did not answer ` +
            `GET /_parley/health within ${timeoutMs} ms (healthTimeoutMs): it takes connections but does ` +
            `not answer as a reference server does; ${SHARED_SERVER_HINT}`,
          { cause: error },
        )
      : explain(error),
  );
  if (response.status === 401) {
    throw new Error(
      `${caller}: the shared server at ${url} refused the control token: give its token as controlToken ` +
        'or PARLEY_CONTROL_TOKEN',
    );
  }
  if (!response.ok) {
    throw new Error(
      `${caller}: ${url} (serverUrl or PARLEY_BASE_URL) answered GET /_parley/health with ${response.status}: ` +
        `it is not a reference server with control routes; ${SHARED_SERVER_HINT}`,
    );
  }
  return {
    url,
    token,
    controlToken,
    testScope(name, attempt) {
      const testId = testIdHeaderValue(name, attempt);
      const headers = { [TEST_ID_HEADER]: testId };
      const scope = remoteScope(url, controlToken, testId, explain, fetchImpl);
      return {
        ...scope,
        testId,
        headers,
        fetch(path, init = {}) {
          const target = new URL(path, `${url}/`);
          const all = new Headers(init.headers);
          if (!all.has('authorization')) all.set('authorization', `Bearer ${token}`);
          if (target.pathname.startsWith('/_parley') && !all.has(CONTROL_TOKEN_HEADER)) {
            all.set(CONTROL_TOKEN_HEADER, controlToken);
          }
          all.set(TEST_ID_HEADER, testId);
          return fetchImpl(target, { ...init, headers: all });
        },
      };
    },
  };
}

/**
 * `GET /_parley/health`, its body read whole (a small JSON body: the connection is then free for the
 * next call), given up after `timeoutMs`: the request is aborted, and the wait ends then even for a
 * given `fetch` that does not honour the signal. A failure goes through `fail` (`timedOut`: the limit
 * ended it).
 */
async function checkHealth(
  url: string,
  controlToken: string,
  fetchImpl: typeof fetch,
  timeoutMs: number,
  fail: (error: unknown, timedOut: boolean) => Error,
): Promise<Response> {
  const controller = new AbortController();
  const timedOut = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  timedOut.catch(() => {});
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  // Called in an async function: a given fetch that throws at once rejects as any other.
  const answer = (async () =>
    fetchImpl(`${url}/_parley/health`, {
      headers: { [CONTROL_TOKEN_HEADER]: controlToken },
      signal: controller.signal,
    }))();
  try {
    const response = await Promise.race([answer, timedOut]);
    await Promise.race([response.arrayBuffer(), timedOut]);
    return response;
  } catch (error) {
    // An answer that comes after the limit is not read: its body is let go.
    if (controller.signal.aborted)
      void answer.then(
        (late) => late.body?.cancel(),
        () => {},
      );
    throw fail(error, controller.signal.aborted);
  } finally {
    clearTimeout(timer);
  }
}

function unreachable(caller: string, url: string, error: unknown): Error {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return new Error(
    `${caller}: the shared server at ${url} (serverUrl or PARLEY_BASE_URL) cannot be reached (${why}): ` +
      `${SHARED_SERVER_HINT}; or leave out serverUrl for a server of the test file's own`,
    { cause: error },
  );
}
