import { getPath } from 'hono/utils/url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startMswMode } from './adapters/msw-mode.js';
import { type RunningServer, startServer } from './adapters/start-server.js';
import {
  createReferenceServer,
  DEMO_USER,
  type ReferenceServer,
  type ReferenceServerOptions,
} from './create-reference-server.js';
import { CONTROL_TOKEN_HEADER } from './testing/control-access.js';
import { isControlPath } from './testing/control-routes.js';

/** What a client factory gets: where the server is and whose token to send. */
export interface ClientInit {
  /** `http://127.0.0.1:PORT` over HTTP, the msw base URL (default `http://parley.test`) in msw mode. */
  baseUrl: string;
  /** The bearer token of the first user (the demo user's by default). */
  token: string;
}

/** Options of {@link useReferenceServer}: every server option plus how to run it. */
export interface UseReferenceServerOptions<Client = never> extends ReferenceServerOptions {
  /**
   * `'http'` (default): a real socket on a free port (`startServer`), reachable from any client,
   * also another process. `'msw'`: no socket; msw answers `fetch` calls to `baseUrl` in-process
   * (msw is an optional peer dependency: install it for this mode).
   */
  mode?: 'http' | 'msw';
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
}

/** What {@link useReferenceServer} returns; its members are usable inside tests and hooks. */
export interface ReferenceServerHandle<Client = never> {
  readonly mode: 'http' | 'msw';
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
  const {
    mode = 'http',
    baseUrl = 'http://parley.test',
    host,
    resetAfterEach = true,
    createClient,
    control = true,
    ...serverOptions
  } = options;
  const token = (serverOptions.users?.[0] ?? DEMO_USER).token;
  let state: { url: string; server: ReferenceServer; close(): Promise<void> } | undefined;
  let client: { value: Client } | undefined;

  const started = () => {
    if (state === undefined) {
      throw new Error('useReferenceServer: the server runs only inside tests and hooks of this file');
    }
    return state;
  };

  beforeAll(async () => {
    if (mode === 'msw') {
      const server = createReferenceServer({ ...serverOptions, control });
      const url = baseUrl.replace(/\/+$/, '');
      const mock = await startMswMode(server, url);
      state = {
        url,
        server,
        close: async () => {
          server.abortReplies();
          mock.close();
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
  });

  if (resetAfterEach) afterEach(() => state?.server.reset());

  afterAll(async () => {
    await state?.close();
    state = undefined;
    client = undefined;
  });

  return {
    mode,
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
