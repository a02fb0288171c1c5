// The browser's side of `#upstream-transport` (package.json `imports`, condition `browser`): a page
// has no node:http, so the proxy calls its upstream with the runtime's own `fetch`.
import { fetchTransport } from './fetch-transport.js';
import type { UpstreamClient } from './upstream-call.js';

/** Makes the proxy's upstream client: the global `fetch`. */
export function createUpstreamTransport(): UpstreamClient {
  return { send: fetchTransport((input, init) => globalThis.fetch(input, init)), close: () => {} };
}
