import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ProxyExchange,
  type RunningServer,
  type StartServerOptions,
  startServer,
  type UpstreamOptions,
} from '@parley/reference-server';
import { afterEach } from 'vitest';

export const DEMO_TOKEN = 'parley-demo-token';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A reference server over HTTP on a free port, closed after the test. */
export async function startUpstream(options: StartServerOptions = {}): Promise<RunningServer> {
  const running = await startServer({ port: 0, ...options });
  cleanups.push(() => running.close());
  return running;
}

/** What a proxy under test printed and told its observer. */
export interface ProxyUnderTest {
  running: RunningServer;
  url: string;
  /** Warning lines (and the summary once closed). */
  lines: string[];
  exchanges: ProxyExchange[];
  /** Whether the observer was closed. */
  observerClosed: () => boolean;
  /** GET with the control token. */
  control(path: string): Promise<Response>;
}

/** A reference server over HTTP proxying to `url`, with control routes, collecting its lines and exchanges. */
export async function startProxy(
  url: string,
  upstream: Partial<UpstreamOptions> = {},
  options: StartServerOptions = {},
): Promise<ProxyUnderTest> {
  const lines: string[] = [];
  const exchanges: ProxyExchange[] = [];
  let closed = false;
  const running = await startServer({
    port: 0,
    control: true,
    ...options,
    upstream: {
      url,
      log: (line) => lines.push(line),
      observers: [
        {
          onExchange: (exchange) => exchanges.push(exchange),
          close: () => {
            closed = true;
          },
        },
      ],
      ...upstream,
    },
  });
  cleanups.push(() => running.close());
  return {
    running,
    url: running.url,
    lines,
    exchanges,
    observerClosed: () => closed,
    control: (path) =>
      fetch(running.url + path, { headers: { 'x-parley-control-token': running.server.controlToken ?? '' } }),
  };
}

/** A request a scripted upstream received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Resolves when the proxy closed this request's connection before the answer ended. */
  closedEarly: Promise<void>;
}

/** A small node:http upstream whose answers a test writes itself (to break the protocol on purpose). */
export interface ScriptedUpstream {
  url: string;
  requests: ReceivedRequest[];
}

export async function startScriptedUpstream(
  handle: (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>,
): Promise<ScriptedUpstream> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const closedEarly = new Promise<void>((resolve) => {
        response.once('close', () => {
          if (!response.writableFinished) resolve();
        });
      });
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        closedEarly,
      };
      requests.push(request);
      void handle(request, response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests };
}

/** Answers with this status, content type and exact body text. */
export function answer(
  response: ServerResponse,
  status: number,
  body: string,
  type = 'application/json',
): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** A promise the test resolves when it wants: the upstream waits on it, the test counts events meanwhile. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A free TCP port nobody listens on (bound, then closed). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Sends a request with the demo token (or the given one) and JSON body. */
export function send(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${DEMO_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
