// The app's server: the static page, its script (bundled with esbuild at start), and the chat
// route, which holds the Parley token and relays each reply with `toReadableStream()`.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Parley } from '@parley/sdk';
import { build } from 'esbuild';

export interface AppOptions {
  /** The Parley service the route talks to. */
  parleyBaseUrl: string;
  /** The Parley token: it stays on the server. */
  parleyToken: string;
  /** The port to listen on (0: any free port). */
  port?: number;
}

export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

const PAGE = fileURLToPath(new URL('../public/index.html', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./page.ts', import.meta.url));

/** Bundles the page script for the browser. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [SCRIPT],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    // In this repository the SDK resolves to its sources; an app using the published package
    // leaves this out.
    conditions: ['@parley/source'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

async function readJson(request: IncomingMessage): Promise<{ sessionId?: unknown; content?: unknown }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sessionId?: unknown; content?: unknown };
  } catch {
    return {};
  }
}

/** POST /api/chat `{ sessionId?, content }`: streams the reply as `toReadableStream()` writes it. */
async function chat(client: Parley, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readJson(request);
  if (typeof body.content !== 'string' || body.content === '') {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: 'content must be a non-empty string' }));
    return;
  }
  const sessionId =
    typeof body.sessionId === 'string' ? body.sessionId : (await client.sessions.create()).sessionId;
  const stream = client.messages.stream(sessionId, { content: body.content });
  // Errors of the stream (the session is gone, the stream broke) travel in the body, so the page
  // gets them as the same typed errors: the status is 200 once the relay begins.
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  // When the browser goes away, pipeline cancels the relayed body, which aborts the Parley request.
  await pipeline(Readable.fromWeb(stream.toReadableStream() as never), response).catch(() => {});
}

/** Starts the app's HTTP server. */
export async function startApp(options: AppOptions): Promise<RunningApp> {
  const client = new Parley({ baseUrl: options.parleyBaseUrl, token: options.parleyToken });
  const [page, script] = await Promise.all([readFile(PAGE, 'utf8'), bundlePage()]);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://app').pathname;
    if (request.method === 'GET' && path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    } else if (request.method === 'GET' && path === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else if (request.method === 'POST' && path === '/api/chat') {
      chat(client, request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: String(error) }));
      });
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
