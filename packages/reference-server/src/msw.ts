import { http, type RequestHandler } from 'msw';
import type { ReferenceServer } from './create-reference-server.js';
import { isInjectedDropError } from './testing/fault.js';
import { checkOptions, type OptionKeys } from './utils/check-options.js';

/** Options of {@link createHandlers}. */
export interface MswHandlerOptions {
  /** Base URL the handlers answer under, e.g. `https://parley.test` (no trailing slash). */
  baseUrl: string;
}

const MSW_HANDLER_OPTION_KEYS = { baseUrl: 'string' } as const satisfies OptionKeys<MswHandlerOptions>;

/**
 * msw request handlers that answer every request under `baseUrl` with the reference server. Works in
 * Node (`msw/node`) and in the browser (`msw/browser`).
 *
 * @example
 * const server = createReferenceServer();
 * const mock = setupServer(...createHandlers(server, { baseUrl: 'https://parley.test' }));
 */
export function createHandlers(
  server: Pick<ReferenceServer, 'fetch'>,
  options: MswHandlerOptions,
): RequestHandler[] {
  checkOptions(options, MSW_HANDLER_OPTION_KEYS, 'createHandlers()');
  if (options === undefined) throw new TypeError('createHandlers(): pass { baseUrl }');
  const base = options.baseUrl.replace(/\/+$/, '');
  return [
    http.all(`${base}/*`, async ({ request }) => {
      try {
        return await server.fetch(request);
      } catch (error) {
        // An injected dropped connection: msw turns this into a network error for the client.
        if (isInjectedDropError(error)) return Response.error();
        throw error;
      }
    }),
  ];
}

export type { ReferenceServer, ReferenceServerOptions } from './create-reference-server.js';
// The web-standard core, re-exported so a browser bundle can import everything it needs from this
// entry without pulling the node:http adapter of the main entry.
export { createReferenceServer, DEMO_USER } from './create-reference-server.js';
export { scriptedModel } from './model/scripted-model.js';
export { standInModel } from './model/stand-in-model.js';
export { turn } from './model/turn.js';
export { CONTROL_TOKEN_HEADER } from './testing/control-access.js';
export type { Fault } from './testing/fault.js';
export { FAULT_HEADER } from './testing/fault.js';
export { ManualClock } from './time/manual-clock.js';
export { TEST_ID_HEADER } from './utils/test-id.js';
