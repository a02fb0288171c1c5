import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '@parley/reference-server';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const SDK_ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

async function browserBundle(): Promise<string> {
  const result = await build({
    entryPoints: [SDK_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@parley/source'],
    write: false,
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild wrote nothing');
  return file.text;
}

/** The app's own origin (another port than the server's), serving the SDK bundle. */
async function servePage(bundle: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface PageResult {
  sessionCreated: boolean;
  fault: { status: number; code: string; internal: boolean; connection: boolean; requestId: string };
  journal: { status: number; paths: string[] };
  withoutToken: { status: number; code: string };
}

// Runs where Debian's chromium is installed; skips elsewhere.
describe('CORS for a page on another origin (Chromium)', () => {
  it.runIf(existsSync(CHROMIUM))(
    'sees a typed 503 from an injected fault, sends a custom header, and calls a control route with the token',
    async () => {
      const bundle = await browserBundle();
      const api = await startServer({ port: 0, control: true });
      const app = await servePage(bundle);
      const token = api.server.controlToken ?? '';
      const userDataDir = await mkdtemp(join(tmpdir(), 'parley-cors-browser-'));
      const browser = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        const sent: Array<Record<string, string>> = [];
        page.on('request', (request) => {
          if (request.url().startsWith(`${api.url}/v1/`)) sent.push(request.headers());
        });
        await page.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code.
        const script = `(async () => {
          const { Parley, isInternalServerError, isAPIConnectionError } = await import(${JSON.stringify(`${app.url}/sdk.js`)});
          const client = new Parley({
            baseUrl: ${JSON.stringify(api.url)},
            token: 'parley-demo-token',
            maxRetries: 0,
            headers: { 'x-app-version': '1.2.3' },
          });
          const { sessionId } = await client.sessions.create();
          const error = await client.sessions
            .list({ headers: { 'x-parley-fault': 'status=503' } })
            .then(() => undefined, (e) => e);
          const journal = await fetch(${JSON.stringify(`${api.url}/_parley/journal`)}, {
            headers: { 'x-parley-control-token': ${JSON.stringify(token)} },
          });
          const entries = (await journal.json()).entries;
          const refused = await fetch(${JSON.stringify(`${api.url}/_parley/journal`)});
          return {
            sessionCreated: typeof sessionId === 'string',
            fault: {
              status: error.status,
              code: error.code,
              internal: isInternalServerError(error),
              connection: isAPIConnectionError(error),
              requestId: error.requestId,
            },
            journal: { status: journal.status, paths: entries.map((e) => e.method + ' ' + e.path) },
            withoutToken: { status: refused.status, code: (await refused.json()).error.code },
          };
        })()`;
        const result = (await page.evaluate(script)) as PageResult;
        expect(result.sessionCreated).toBe(true);
        expect(result.fault).toMatchObject({
          status: 503,
          code: 'injected_fault',
          internal: true,
          connection: false,
        });
        expect(result.fault.requestId).toMatch(/^req_/);
        expect(result.journal).toEqual({ status: 200, paths: ['POST /v1/sessions', 'GET /v1/sessions'] });
        expect(result.withoutToken).toEqual({ status: 401, code: 'control_token_required' });
        // The custom header went out on the real requests (a browser sends a non-safelisted header
        // to another origin only after a preflight allowed it; Playwright does not list preflights).
        expect(sent.map((headers) => headers['x-app-version'])).toEqual(['1.2.3', '1.2.3']);
      } finally {
        await browser.close();
        await api.close();
        await new Promise((resolve) => app.server.close(resolve));
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
