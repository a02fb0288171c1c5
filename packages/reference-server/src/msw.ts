import { http, type RequestHandler } from 'msw';
import type { ReferenceServer } from './create-reference-server.js';

/** Options of {@link createHandlers}. */
export interface MswHandlerOptions {
  /** Base URL the handlers answer under, e.g. `https://parley.test` (no trailing slash). */
  baseUrl: string;
}

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
  const base = options.baseUrl.replace(/\/+$/, '');
  return [http.all(`${base}/*`, ({ request }) => server.fetch(request))];
}

export type { ReferenceServer, ReferenceServerOptions } from './create-reference-server.js';
// The web-standard core, re-exported so a browser bundle can import everything it needs from this
// entry without pulling the node:http adapter of the main entry.
export { createReferenceServer, DEMO_USER } from './create-reference-server.js';
export { ManualClock } from './manual-clock.js';
export { scriptedModel } from './model/scripted-model.js';
export { standInModel } from './model/stand-in-model.js';
export { turn } from './model/turn.js';
