import type { TestInfo } from '@playwright/test';
import type { ReferenceServer } from '../create-reference-server.js';
import { CONTROL_TOKEN_HEADER } from '../testing/control-access.js';
import { journalSnapshotPage } from '../testing/journal-snapshot-page.js';
import { TEST_ID_HEADER } from '../utils/test-id.js';
import type { TestControls } from './runner-options.js';
import type { ScopeAccess } from './test-scope.js';

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
export interface ParleyHandle extends TestControls {
  /**
   * The test's id: the project, file, describe blocks and title, joined by ` > `; on a shared server
   * as `x-parley-test-id` carries it (encoded one to one, a repeat or retry marked: `... %retry=1`).
   */
  readonly testId: string;
  /** The URL the server listens at. */
  readonly url: string;
  /** The base URL the page's requests are routed from. */
  readonly baseUrl: string;
  /** The first user's bearer token. */
  readonly token: string;
  /** The server in this worker (`setModel`, `clock`, ...): absent with a shared server, where it throws. */
  readonly server: ReferenceServer;
  /** `fetch` against the server, with the bearer token, the control token on `/_parley/` paths and the test's id. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** The test's id: the project (when named), the file, the describe blocks and the title. */
export function testIdOf(testInfo: TestInfo): string {
  return [testInfo.project.name, ...testInfo.titlePath].filter((part) => part !== '').join(' > ');
}

export function handleOf(options: {
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
      if (shared) headers.set(TEST_ID_HEADER, testId);
      return fetch(url, { ...init, headers });
    },
  };
}

/** Attaches the test's journal as JSON and as the journal page, readable without the server. */
export async function attachJournal(testInfo: TestInfo, scope: ScopeAccess): Promise<void> {
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
