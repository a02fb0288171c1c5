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
        ...bodyOf(response),
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

/** A fetch response's body, whole while it is at most `maxBytes` long, or as a stream. */
function bodyOf(response: Response): Pick<UpstreamAnswer, 'bytes' | 'stream'> {
  let readAlready: Uint8Array[] = [];
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    bytes: async (maxBytes) => {
      if (Number(response.headers.get('content-length')) > maxBytes) return undefined;
      if (response.body === null) return new Uint8Array(0);
      reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let length = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        length += value.byteLength;
        if (length > maxBytes) {
          readAlready = chunks;
          return undefined;
        }
      }
      const whole = new Uint8Array(length);
      let at = 0;
      for (const chunk of chunks) {
        whole.set(chunk, at);
        at += chunk.byteLength;
      }
      return whole;
    },
    stream: () => {
      const started = reader;
      if (started === undefined) return response.body;
      return new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const next = readAlready.shift();
          if (next !== undefined) return controller.enqueue(next);
          const { done, value } = await started.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => started.cancel(reason),
      });
    },
  };
}
