import type { AddressInfo } from 'node:net';
import type { HttpBindings } from '@hono/node-server';
import {
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '../create-reference-server.js';
import { attachConnection } from '../http/connection.js';
import { writableHead } from '../http/text-response.js';
import { SERVER_OPTION_KEYS } from '../reference-server-options.js';
import { checkOptions, type OptionKeys } from '../utils/check-options.js';
import { answerClientError, unreadableRequest } from './client-error.js';
import { needsLatin1Head, writeLatin1HeadStream } from './latin1-head-stream.js';
import { NodeConnection } from './node-connection.js';

/** How long an idle keep-alive connection stays open, announced as `Keep-Alive: timeout=60`. */
export const KEEP_ALIVE_TIMEOUT_MS = 60_000;

/**
 * Options of {@link startServer}: where to listen, plus every {@link ReferenceServerOptions}.
 * Over a socket `allowedHosts` defaults to `[]`: loopback names and IP addresses only.
 */
export interface StartServerOptions extends ReferenceServerOptions {
  /** TCP port; `0` (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
}

/**
 * Every key of {@link StartServerOptions}: the server's and its own, each with its type. A new
 * option of `startServer` is one more line here (TypeScript fails until it is).
 */
export const START_SERVER_OPTION_KEYS = {
  ...SERVER_OPTION_KEYS,
  port: 'number',
  host: 'string',
} as const satisfies OptionKeys<StartServerOptions>;

/** A reference server listening over node:http. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  port: number;
  /** The reference server behind the socket. */
  server: ReferenceServer;
  /** Stops listening, ends open streams and closes every connection. */
  close(): Promise<void>;
}

/**
 * Serves a reference server over node:http with `@hono/node-server` (global Request/Response are
 * left alone, so msw and the SDK in the same process keep working).
 *
 * @example
 * const running = await startServer({ port: 0 });
 * const client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
 * await running.close();
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  checkOptions(options, START_SERVER_OPTION_KEYS, 'startServer()');
  const { port = 0, host = '127.0.0.1', allowedHosts = [], ...serverOptions } = options;
  // A socket can be reached by a DNS-rebinding page: the host check is on unless turned off.
  const server = createReferenceServer({ ...serverOptions, allowedHosts });
  // Imported here, not with the package: a test that runs the server in process never loads them.
  const [{ getRequestListener }, { RESPONSE_ALREADY_SENT }, { createServer }] = await Promise.all([
    import('@hono/node-server'),
    import('@hono/node-server/utils/response'),
    import('node:http'),
  ]);
  const sent = RESPONSE_ALREADY_SENT;
  // The listener `serve` would make, with an error handler: a request whose URL cannot be made
  // (`OPTIONS *`, a backslash in the path, a bad Host) gets the JSON error body, not an empty 400.
  const listener = getRequestListener(
    (request, env) => serveRequest(server, request, env as HttpBindings, sent),
    { hostname: host, overrideGlobalObjects: false, errorHandler: unreadableRequest },
  );
  return new Promise<RunningServer>((resolve, reject) => {
    const httpServer = createServer(listener);
    httpServer.listen(port, host, () => {
      const info = httpServer.address() as AddressInfo;
      httpServer.off('error', reject);
      const urlHost = info.family === 'IPv6' || host.includes(':') ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${urlHost}:${info.port}`,
        port: info.port,
        server,
        close: () =>
          new Promise<void>((done) => {
            const closed = server.close();
            httpServer.close(() => void closed.then(done, done));
            httpServer.closeAllConnections();
          }),
      });
    });
    httpServer.once('error', reject);
    // Node's 5 s default closes idle connections a busy client may be reusing: undici keeps one
    // until 1 s before the announced `Keep-Alive: timeout=5`, so a client whose event loop runs a
    // second late sends into a closed socket (a send fails with `other side closed` and is not
    // retried). A minute, as load balancers keep them; `close()` still closes them at once.
    httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Unreadable bytes after a request: that request is answered before the 400 (client-error.ts).
    httpServer.on('clientError', answerClientError);
  });
}

/**
 * One request over node:http, its connection lent to the core (an injected dropped connection
 * destroys the socket; a body is read off it). A JSON response whose text and header fields the
 * core knows is written here as it is: no `Headers` read, no body stream.
 */
async function serveRequest(
  server: ReferenceServer,
  request: Request,
  env: HttpBindings,
  responseAlreadySent: Response,
): Promise<Response> {
  attachConnection(request, new NodeConnection(env.incoming, env.outgoing));
  try {
    const response = await server.fetch(request);
    const head = writableHead(response);
    if (head === undefined) {
      if (!needsLatin1Head(response)) return response;
      await writeLatin1HeadStream(response, env.outgoing);
      return responseAlreadySent;
    }
    const { text, fields } = head;
    // Bytes, not a string: node:http writes the head in the body's encoding when it is a string,
    // which would send a header's bytes 0x80-0xff (latin1, as received) as UTF-8.
    const body = Buffer.from(text);
    fields['content-length'] = String(body.byteLength);
    env.outgoing.writeHead(response.status, fields);
    env.outgoing.end(body);
    return responseAlreadySent;
  } catch {
    // server.fetch rejects only for a dropped connection (it answers every failure with a response):
    // nothing was written, so the socket goes at once.
    env.incoming.socket.destroy();
    return new Response(null, { status: 500 });
  }
}
