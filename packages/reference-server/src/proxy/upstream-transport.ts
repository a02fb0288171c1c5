// Node's side of `#upstream-transport` (package.json `imports`): the checking proxy calls its upstream
// over node:http(s) with a keep-alive agent. undici's `fetch` (its `Request`, header validation and
// web streams per call) was most of the proxy's CPU per request; this client writes the request
// as it is and hands the answer back as a web `Response` whose body streams off the socket.
import http from 'node:http';
import https from 'node:https';

type Send = (input: string, init: RequestInit) => Promise<Response>;

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** Makes the proxy's upstream client: node:http(s), one keep-alive agent per protocol. */
export function createUpstreamTransport(): Send {
  return send;
}

function send(input: string, init: RequestInit): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const url = new URL(input);
    const secure = url.protocol === 'https:';
    const body = init.body as Uint8Array | undefined;
    const headers = { ...(init.headers as Record<string, string>) };
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    const signal = init.signal ?? undefined;
    // The error `fetch` gives, so that the proxy names the cause the same way (`ECONNREFUSED`).
    const failed = (cause: unknown) => new TypeError('fetch failed', { cause });
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const request = (secure ? https : http).request(url, {
      method: init.method ?? 'GET',
      headers,
      agent: secure ? agents['https:'] : agents['http:'],
    });
    const onAbort = () => request.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    request.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted === true ? signal.reason : failed(error));
    });
    request.once('response', (incoming) => {
      const fields = new Headers();
      const raw = incoming.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) fields.append(raw[i] as string, raw[i + 1] as string);
      const status = incoming.statusCode ?? 502;
      const empty = status === 204 || status === 304 || init.method === 'HEAD';
      // Pulled chunk by chunk: the socket is paused while the reader has enough, so a slow client
      // holds the upstream back; cancelling the body ends the upstream request.
      const stream = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            incoming.on('data', (chunk: Buffer) => {
              controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
              if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
            });
            incoming.once('end', () => {
              signal?.removeEventListener('abort', onAbort);
              controller.close();
            });
            incoming.once('error', (error) => {
              signal?.removeEventListener('abort', onAbort);
              controller.error(signal?.aborted === true ? signal.reason : failed(error));
            });
          },
          pull() {
            incoming.resume();
          },
          cancel(reason) {
            signal?.removeEventListener('abort', onAbort);
            request.destroy(reason instanceof Error ? reason : undefined);
          },
        },
        { highWaterMark: 1 },
      );
      if (empty) incoming.resume();
      resolve(new Response(empty ? null : stream, { status, headers: fields }));
    });
    request.end(body);
  });
}
