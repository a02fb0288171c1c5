// What the SDK's browser tests share: Debian's Chromium, an esbuild bundle for the browser platform
// (a `node:` import anywhere fails the build), a page on its own origin, and a headless browser.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium; the browser tests run where it is installed (CI installs it when it can). */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

const SDK_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** Bundles `entry` (a file, or module text resolved from the SDK package) for the browser, ESM. */
export async function bundleForBrowser(entry: { file: string } | { contents: string }): Promise<string> {
  const result = await build({
    ...('file' in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.contents, resolveDir: SDK_DIR, sourcefile: 'entry.js' } }),
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

/**
 * A page on its own origin (another port than the server's), like an app's dev server: `scripts`
 * by path as JavaScript, any other path an empty HTML page; `headers` on every response.
 */
export async function servePage(
  scripts: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const script = scripts[req.url ?? ''];
    if (script !== undefined)
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { ...headers, 'content-type': 'text/html' })
        .end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headless Chromium with a throw-away profile; `close()` ends it and removes the profile. */
export async function launchChromium(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
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
  return {
    browser,
    close: async () => {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
