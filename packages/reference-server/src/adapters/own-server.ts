import { createReferenceServer, type ReferenceServer } from '../create-reference-server.js';
import type { ReferenceServerOptions } from '../reference-server-options.js';
import { startMswMode } from './msw-mode.js';
import type { SharedServer } from './shared-server.js';
import { startServer } from './start-server.js';
import type { HarnessTest, TestOutcome, TestRun } from './test-run.js';
import { inProcessScope } from './test-scope.js';

/** The server of a file (or a Playwright worker): its own, or a shared one. */
export interface Running {
  url: string;
  server: ReferenceServer | undefined;
  shared: SharedServer | undefined;
  /** Begins a run of a test: its scope, and its cassette told of it. */
  begin(test: HarnessTest): Promise<TestRun>;
  /** Tests this run skips: a recording per file is then not written over the one the file holds. */
  testsNotRun(names: readonly string[]): void;
  close(): Promise<void>;
}

/**
 * Starts a file's (or a Playwright worker's) own server: over HTTP on a free port, or in msw mode
 * under `baseUrl`. `allowedHost`: a host its requests may carry besides its own (the page's base
 * URL, whose Host routed requests keep on their way to the worker's port).
 */
export async function startOwnServer(how: {
  mode: 'http' | 'msw' | 'shared';
  baseUrl: string;
  host: string | undefined;
  control: boolean;
  allowedHost: string | undefined;
  serverOptions: ReferenceServerOptions;
}): Promise<Running> {
  const { serverOptions, control, host, allowedHost } = how;
  if (how.mode === 'msw') {
    const server = createReferenceServer({ ...serverOptions, control });
    const url = how.baseUrl.replace(/\/+$/, '');
    const mock = await startMswMode(server, url);
    // Closing the server aborts running replies, closes providers and, when recording, writes the cassette.
    const close = async () => {
      mock.close();
      await server.close();
    };
    return { url, ...inProcess(server), close };
  }
  const { allowedHosts } = serverOptions;
  const running = await startServer({
    ...serverOptions,
    control,
    port: 0,
    ...(host === undefined ? {} : { host }),
    ...(allowedHost === undefined
      ? {}
      : { allowedHosts: allowedHosts === true ? true : [...(allowedHosts ?? []), allowedHost] }),
  });
  return { url: running.url, ...inProcess(running.server), close: () => running.close() };
}

/** A server in this process: its own scope; its cassette keys the test's recordings by its name. */
function inProcess(server: ReferenceServer): Omit<Running, 'url' | 'close'> {
  const scope = inProcessScope(server);
  const { cassette } = server;
  return {
    server,
    shared: undefined,
    async begin(test) {
      cassette?.beginTest(test.name, test.rerecord === undefined ? undefined : { rerecord: test.rerecord });
      const report = async (outcome: TestOutcome) => {
        if (outcome === 'failed') cassette?.failTest(test.name);
        if (outcome === 'skipped') cassette?.skipTest(test.name);
      };
      return { testId: test.name, scope, fetch: undefined, report };
    },
    testsNotRun: (names) => cassette?.testsNotRun(names),
  };
}
