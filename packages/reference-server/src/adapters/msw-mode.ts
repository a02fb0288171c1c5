import type { ReferenceServer } from '../create-reference-server.js';

/** What msw mode needs of `msw/node`. */
type MswNode = Pick<typeof import('msw/node'), 'setupServer'>;

/** The message when msw mode runs where msw is not installed. */
export const MSW_MISSING_MESSAGE =
  "useReferenceServer({ mode: 'msw' }) needs msw, an optional peer dependency of @parley/reference-server: " +
  'install it (npm install --save-dev msw), or leave out mode to run the server over HTTP, which does not need msw';

/** Whether `error` says that the package `msw` itself could not be found (not a file inside it). */
function isMswMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    /['"]msw(\/node)?['"]/.test(message)
  );
}

/**
 * Answers `fetch` calls to `baseUrl` with `server` in this process through msw, loaded here (msw is
 * an optional peer dependency: HTTP mode never loads it). Missing msw is an error saying what to
 * install. `importMsw` is for tests.
 */
export async function startMswMode(
  server: ReferenceServer,
  baseUrl: string,
  importMsw: () => Promise<MswNode> = () => import('msw/node'),
): Promise<{ close(): void }> {
  let msw: MswNode;
  try {
    msw = await importMsw();
  } catch (error) {
    if (isMswMissing(error)) throw new Error(MSW_MISSING_MESSAGE, { cause: error });
    throw error;
  }
  const { createHandlers } = await import('../msw.js');
  const mock = msw.setupServer(...createHandlers(server, { baseUrl }));
  mock.listen({ onUnhandledRequest: 'bypass' });
  return { close: () => mock.close() };
}
