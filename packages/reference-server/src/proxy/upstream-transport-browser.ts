// The browser's side of `#upstream-transport` (package.json `imports`, condition `browser`): a page
// has no node:http, so the proxy calls its upstream with the runtime's own `fetch`.

/** Makes the proxy's upstream client: the global `fetch`. */
export function createUpstreamTransport(): (input: string, init: RequestInit) => Promise<Response> {
  return (input, init) => globalThis.fetch(input, init);
}
