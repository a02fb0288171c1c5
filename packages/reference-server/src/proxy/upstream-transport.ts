// Node's side of `#upstream-transport` (package.json `imports`): the checking proxy calls its upstream
// over node:http(s) with a keep-alive agent. undici's `fetch` (its `Request`, header validation and
// web streams per call) was most of the proxy's CPU per request; this client writes the request
// as it is and reads the answer off the socket: a buffered body into one buffer, a streamed one
// as a web stream only when the proxy passes it on.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { UpstreamAnswer, UpstreamCall, UpstreamClient, UpstreamExchange } from './upstream-call.js';

/** Where a base URL points, parsed once per upstream rather than once per request. */
interface Target {
  secure: boolean;
  hostname: string;
  port: string;
  /** The base URL's path prefix, without a trailing slash. */
  prefix: string;
  auth: string | undefined;
}

function targetOf(targets: Map<string, Target>, base: string): Target {
  let target = targets.get(base);
  if (target === undefined) {
    const url = new URL(base);
    const hostname = url.hostname;
    target = {
      secure: url.protocol === 'https:',
      // `[::1]` in a URL, `::1` for node:http.
      hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
      port: url.port,
      prefix: url.pathname.replace(/\/+$/, ''),
      auth:
        url.username === '' && url.password === ''
          ? undefined
          : `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`,
    };
    targets.set(base, target);
  }
  return target;
}

/**
 * Makes the proxy's upstream client: node:http(s), one keep-alive agent per protocol, its own (so
 * that `close()` ends its idle connections and a test process exits when the server closes).
 */
export function createUpstreamTransport(): UpstreamClient {
  const agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  const targets = new Map<string, Target>();
  return {
    send: (call) => send(call, targetOf(targets, call.base), agents),
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** The error `fetch` gives, so that the proxy names the cause the same way (`ECONNRESET`). */
const failed = (cause: unknown) => new TypeError('fetch failed', { cause });

function send(
  call: UpstreamCall,
  target: Target,
  agents: { http: http.Agent; https: https.Agent },
): UpstreamExchange {
  const { headers, body } = call;
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  /** Set once the call is aborted: every failure after it is told as this reason. */
  let abortedWith: Error | undefined;
  let incoming: IncomingMessage | undefined;
  const request = (target.secure ? https : http).request({
    hostname: target.hostname,
    ...(target.port === '' ? {} : { port: target.port }),
    path: target.prefix + call.path,
    method: call.method,
    headers,
    agent: target.secure ? agents.https : agents.http,
    ...(target.auth === undefined ? {} : { auth: target.auth }),
  });
  const reasonOf = (error: unknown) => abortedWith ?? failed(error);
  const answer = new Promise<UpstreamAnswer>((resolve, reject) => {
    request.on('error', (error) => reject(reasonOf(error)));
    request.once('response', (message) => {
      incoming = message;
      resolve(new NodeAnswer(message, call.method, request, reasonOf));
    });
  });
  request.end(body);
  return {
    answer,
    abort: (reason) => {
      // Once the answer is whole, its socket may serve another request: it is not destroyed.
      if (abortedWith !== undefined || incoming?.complete === true) return;
      abortedWith = reason;
      request.destroy(reason);
    },
  };
}

const EMPTY = new Uint8Array(0);

class NodeAnswer implements UpstreamAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly #incoming: IncomingMessage;
  readonly #request: http.ClientRequest;
  readonly #reasonOf: (error: unknown) => Error;
  readonly #empty: boolean;
  /** Chunks `bytes()` read before it found the body too long. */
  #readAlready: Buffer[] = [];

  constructor(
    incoming: IncomingMessage,
    method: string,
    request: http.ClientRequest,
    reasonOf: (error: unknown) => Error,
  ) {
    this.#incoming = incoming;
    this.#request = request;
    this.#reasonOf = reasonOf;
    this.status = incoming.statusCode ?? 502;
    this.headers = fieldsOf(incoming.rawHeaders);
    this.#empty = this.status === 204 || this.status === 304 || method === 'HEAD';
    if (this.#empty) incoming.resume();
  }

  bytes(maxBytes: number): Promise<Uint8Array | undefined> {
    if (this.#empty) return Promise.resolve(EMPTY);
    if (Number(this.headers['content-length']) > maxBytes) return Promise.resolve(undefined);
    const incoming = this.#incoming;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const onData = (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.byteLength;
        if (length <= maxBytes) return;
        // Too long to hold: what came so far goes first when the body is streamed on.
        incoming.pause();
        incoming.off('data', onData);
        incoming.off('end', onEnd);
        incoming.off('error', onError);
        this.#readAlready = chunks;
        resolve(undefined);
      };
      const onEnd = () => {
        if (chunks.length === 0) resolve(EMPTY);
        else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
      };
      const onError = (error: Error) => reject(this.#reasonOf(error));
      incoming.on('data', onData);
      incoming.once('end', onEnd);
      incoming.once('error', onError);
    });
  }

  stream(): ReadableStream<Uint8Array> | null {
    if (this.#empty) return null;
    const incoming = this.#incoming;
    const request = this.#request;
    const reasonOf = this.#reasonOf;
    // Pulled chunk by chunk: the socket is paused while the reader has enough, so a slow client
    // holds the upstream back; cancelling the body ends the upstream request.
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          for (const chunk of this.#readAlready.splice(0)) {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          }
          incoming.on('data', (chunk: Buffer) => {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
          });
          incoming.once('end', () => controller.close());
          incoming.once('error', (error) => controller.error(reasonOf(error)));
        },
        pull() {
          incoming.resume();
        },
        cancel(reason) {
          if (incoming.complete) incoming.resume();
          else request.destroy(reason instanceof Error ? reason : undefined);
        },
      },
      { highWaterMark: 1 },
    );
  }
}

/** Header fields from node's raw list: lower-case names, repeats joined as `Headers` joins them. */
function fieldsOf(raw: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    const had = fields[name];
    fields[name] = had === undefined || name === 'set-cookie' ? value : `${had}, ${value}`;
  }
  return fields;
}
