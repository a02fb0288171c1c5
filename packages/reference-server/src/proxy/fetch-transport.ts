import type { UpstreamAnswer, UpstreamTransport } from './upstream-call.js';

/** A transport over a fetch function (`UpstreamOptions.fetch`, or the runtime's own in a browser). */
export function fetchTransport(
  fetch: (input: string, init: RequestInit) => Promise<Response>,
): UpstreamTransport {
  return (call) => {
    const controller = new AbortController();
    const answer = fetch(call.base + call.path, {
      method: call.method,
      headers: call.headers,
      ...(call.body === undefined ? {} : { body: call.body as Uint8Array<ArrayBuffer> }),
      signal: controller.signal,
      redirect: 'manual',
    }).then(
      (response): UpstreamAnswer => ({
        status: response.status,
        headers: fieldsOf(response.headers),
        bytes: async () => new Uint8Array(await response.arrayBuffer()),
        stream: () => response.body,
      }),
    );
    return { answer, abort: (reason) => controller.abort(reason) };
  };
}

/** Header fields as a record: lower-case names, as `Headers` iterates them (the last `set-cookie` kept). */
function fieldsOf(headers: Headers): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of headers) fields[name] = value;
  return fields;
}
