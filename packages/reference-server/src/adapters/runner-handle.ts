import { getPath } from 'hono/utils/url';
import type { ReferenceServer } from '../create-reference-server.js';
import { CONTROL_TOKEN_HEADER } from '../testing/control-access.js';
import { isControlPath } from '../testing/control-prefix.js';
import { TEST_ID_HEADER } from '../utils/test-id.js';
import type { ClientInit, ReferenceServerHandle } from './runner-options.js';
import type { SharedServer } from './shared-server.js';
import type { ScopeAccess } from './test-scope.js';

/** What the handle reads from its harness. */
interface HandleSource<Client> {
  mode: ReferenceServerHandle['mode'];
  cassetteMode: ReferenceServerHandle['cassetteMode'];
  token: string;
  createClient: ((init: ClientInit) => Client) | undefined;
  caller: string;
  running(): { url: string; server: ReferenceServer | undefined; shared: SharedServer | undefined };
  current():
    | {
        testId: string;
        scope: ScopeAccess;
        fetch: ((path: string | URL, init?: RequestInit) => Promise<Response>) | undefined;
      }
    | undefined;
}

/**
 * `useReferenceServer`'s handle: the same members with a server of the file's own and with a shared
 * one, where the client's requests and the handle's calls carry the running test's id.
 */
export function runnerHandle<Client>(source: HandleSource<Client>): ReferenceServerHandle<Client> {
  const { token, createClient, caller } = source;
  let client: { value: Client } | undefined;
  const test = () => {
    const current = source.current();
    if (current === undefined) throw new Error(`${caller}: the test's scope is there only inside a test`);
    return current;
  };
  // A shared server's requests carry the running test's id: the client is built once, its fetch asks.
  const sharedFetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const current = source.current();
    if (current !== undefined) request.headers.set(TEST_ID_HEADER, current.testId);
    return fetch(request);
  };
  return {
    mode: source.mode,
    cassetteMode: source.cassetteMode,
    token,
    get url() {
      return source.running().url;
    },
    get controlToken() {
      const { server, shared } = source.running();
      return shared?.controlToken ?? server?.controlToken;
    },
    get server() {
      const { server } = source.running();
      if (server === undefined) {
        throw new Error(
          `${caller}: the tests run against a shared server (serverUrl), not one in this process: ` +
            'use script, faults and journal of the handle',
        );
      }
      return server;
    },
    get testId() {
      return source.current()?.testId;
    },
    get client(): Client {
      const { url, shared } = source.running();
      if (createClient === undefined) {
        throw new Error(`${caller}: pass createClient, e.g. (init) => new Parley(init)`);
      }
      client ??= {
        value: createClient({ baseUrl: url, token, ...(shared === undefined ? {} : { fetch: sharedFetch }) }),
      };
      return client.value;
    },
    script: (script) => test().scope.script(script),
    faults: {
      next: (fault) => test().scope.queueFault(fault),
      pending: () => test().scope.pendingFaults(),
    },
    journal: (filter) => test().scope.journal(filter),
    sessions: () => test().scope.sessions(),
    fetch(path, init = {}) {
      const { url: base, server, shared } = source.running();
      if (shared !== undefined) {
        const scoped = test().fetch;
        if (scoped !== undefined) return scoped(path, init);
      }
      const url = new URL(path, `${base}/`);
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      if (
        server?.controlToken !== undefined &&
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
