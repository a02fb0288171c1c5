import type { ReferenceServer } from '../create-reference-server.js';
import type { Script } from '../model/script-types.js';
import type { ProxyReportSnapshot } from '../proxy/proxy-report.js';
import { CONTROL_TOKEN_HEADER } from '../testing/control-access.js';
import type { QueuedFault } from '../testing/fault-queue.js';
import type { JournalEntry, JournalFilter } from '../testing/journal.js';
import type { SessionSnapshot } from '../testing/session-snapshot.js';
import { TEST_ID_HEADER } from '../utils/test-id.js';
import type { TestStatus } from '../utils/test-status.js';

/**
 * What one test sets up and reads on its server: in this process (a server of the worker's own), or
 * through the control routes of a shared server with the test's id in {@link TEST_ID_HEADER}.
 */
export interface ScopeAccess {
  script(script: Script): Promise<void>;
  queueFault(fault: QueuedFault): Promise<void>;
  pendingFaults(): Promise<ReferenceServer['faults']['pending']>;
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  sessions(): Promise<SessionSnapshot[]>;
  /** The checking proxy's report, when the server is one. */
  proxyReport(): Promise<ProxyReportSnapshot | undefined>;
  reset(): Promise<void>;
}

/** The scope of a server in this process: its own methods. */
export function inProcessScope(server: ReferenceServer): ScopeAccess {
  return {
    script: async (script) => server.script(script),
    queueFault: async (fault) => server.faults.next(fault),
    pendingFaults: async () => server.faults.pending,
    journal: async (filter) => server.journal.entries(filter),
    // The control route's snapshot; `localhost` passes any server's host check.
    sessions: async () => {
      const response = await server.fetch(
        new Request('http://localhost/_parley/sessions', {
          headers: server.controlToken === undefined ? {} : { [CONTROL_TOKEN_HEADER]: server.controlToken },
        }),
      );
      return response.ok ? ((await response.json()) as { sessions: SessionSnapshot[] }).sessions : [];
    },
    proxyReport: async () => server.proxy?.report(),
    reset: async () => server.reset(),
  };
}

/**
 * The scope of a test on a shared server at `url`, through its control routes (`testId`: the
 * `x-parley-test-id` value): scripts in the script file format (JSON; no functions, regexes as
 * `{ "regex", "flags" }`). `unreachable` makes the error of a call that found no server; the calls
 * go through `fetchImpl`.
 */
export function remoteScope(
  url: string,
  controlToken: string,
  testId: string,
  unreachable: (error: unknown) => Error = (error) => error as Error,
  fetchImpl: typeof fetch = fetch,
): ScopeAccess & { outcome(status: TestStatus): Promise<void> } {
  // `absent`: a status that means "nothing there" (resolves undefined); any other error status throws.
  const call = async (method: string, path: string, body?: unknown, absent?: number): Promise<unknown> => {
    const response = await fetchImpl(`${url}/_parley${path}`, {
      method,
      headers: {
        [CONTROL_TOKEN_HEADER]: controlToken,
        [TEST_ID_HEADER]: testId,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).catch((error: unknown) => {
      throw unreachable(error);
    });
    const text = await response.text();
    if (response.status === absent) return undefined;
    if (!response.ok) throw new Error(`${method} ${url}/_parley${path} answered ${response.status}: ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  return {
    script: async (script) => {
      if (typeof script === 'function') {
        throw new TypeError(
          'A shared server takes scripts as data (turns or rules, the script file format), not a function',
        );
      }
      // The script file format: a list is `{ turns }`, a regex `{ regex, flags }`.
      const file = Array.isArray(script) ? { turns: script } : script;
      await call(
        'PUT',
        '/script',
        JSON.parse(
          JSON.stringify(file, (_key, value: unknown) =>
            value instanceof RegExp ? { regex: value.source, flags: value.flags } : value,
          ),
        ),
      );
    },
    queueFault: async (fault) => {
      // JSON would send a RegExp as {}: said here rather than as the server's "not a string".
      if (fault.match?.path instanceof RegExp) {
        throw new TypeError(
          'A shared server takes a fault’s match.path as a string (`*` for one path segment), not a RegExp',
        );
      }
      await call('POST', '/faults', fault);
    },
    pendingFaults: async () =>
      ((await call('GET', '/faults')) as { pending: ReferenceServer['faults']['pending'] }).pending,
    journal: async (filter = {}) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(filter)) {
        if (value !== undefined) query.set(key === 'sessionId' ? 'session' : key, String(value));
      }
      const search = query.size === 0 ? '' : `?${query}`;
      return ((await call('GET', `/journal${search}`)) as { entries: JournalEntry[] }).entries;
    },
    sessions: async () => ((await call('GET', '/sessions')) as { sessions: SessionSnapshot[] }).sessions,
    // A server that is not a checking proxy answers 404; one that does not answer rejects.
    proxyReport: async () =>
      (await call('GET', '/proxy/report', undefined, 404)) as ProxyReportSnapshot | undefined,
    reset: async () => void (await call('POST', '/reset')),
    outcome: async (status) => void (await call('POST', '/cassette/outcome', { outcome: status })),
  };
}
