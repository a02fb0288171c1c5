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

/** Bundles the SDK for the browser platform: a `node:` import anywhere would fail the build. */
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

/** A page on its own origin (another port) that loads the bundle, like an app's dev server. */
async function servePage(bundle: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

// Runs where Debian's chromium is installed (CI installs it when it can); skips elsewhere.
describe('the SDK in a browser', () => {
  it.runIf(existsSync(CHROMIUM))(
    'bundles without Node built-ins and streams a reply from another origin over fetch',
    async () => {
      const bundle = await browserBundle();
      const api = await startServer({ port: 0 });
      const app = await servePage(bundle);
      const userDataDir = await mkdtemp(join(tmpdir(), 'parley-sdk-browser-'));
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
        await page.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code, the page must not see that.
        const script = `(async () => {
          const { Parley, isNotFoundError } = await import(${JSON.stringify(`${app.url}/sdk.js`)});
          const client = new Parley({ baseUrl: ${JSON.stringify(api.url)}, token: 'parley-demo-token' });
          const { sessionId } = await client.sessions.create();
          const stream = client.messages.stream(sessionId, { content: '/say Hello from the browser.' });
          const deltas = [];
          stream.on('text', (delta) => deltas.push(delta));
          const text = await stream.finalText();
          const missing = await client.sessions.delete('sess_missing').catch((e) => e);
          return { text, deltas: deltas.length, notFound: isNotFoundError(missing), requestId: missing.requestId };
        })()`;
        const result = (await page.evaluate(script)) as {
          text: string;
          deltas: number;
          notFound: boolean;
          requestId: string;
        };
        expect(result.text).toBe('Hello from the browser.');
        expect(result.deltas).toBeGreaterThan(1);
        expect(result.notFound).toBe(true);
        expect(result.requestId).toMatch(/^req_/);
      } finally {
        await browser.close();
        await api.close();
        await new Promise((resolve) => app.server.close(resolve));
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
  );
});
