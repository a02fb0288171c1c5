import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INDEX_LANGUAGES } from '@parley/reference-server';
import { build, type Metafile, type OutputFile } from 'esbuild';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, itWithChromium } from '../helpers/chromium.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

// A page script: a reference server from the `./msw` entry with a Japanese index, searched with `/search`.
const ENTRY = `
import { createReferenceServer } from '@parley/reference-server/msw';
export async function searchJapanese(query) {
  const server = createReferenceServer({ extensions: { indexes: { ja: { language: 'japanese', documents: [
    { id: 'refund', text: '返金は配達から30日以内に請求できます。' },
    { id: 'hours', text: 'サポートの営業時間は平日の9時から18時です。' },
  ] } } } });
  const call = async (path, body) => {
    const response = await server.fetch(new Request('https://parley.test' + path, { method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' },
      body: JSON.stringify(body) }));
    return response.json();
  };
  const { sessionId } = await call('/v1/sessions', { customizations: { extensions: { rag: { indexes: ['ja'] } } } });
  const reply = await call('/v1/messages/' + sessionId, { content: '/search ' + query });
  return reply.messages[2].content[0].content[0].json.results.map((r) => r.id);
}
`;

// Language files as the packages ship them: @orama/stemmers/dist/de.js, @orama/stopwords/dist/ja.js.
const LOCALE_FILE: Record<string, string> = { german: 'de', french: 'fr', japanese: 'ja', english: 'en' };

/** Bundles the page script for browsers, splitting chunks as an application's bundler does. */
async function browserBundle(
  outdir: string,
  write: boolean,
): Promise<{ metafile: Metafile; files: OutputFile[] }> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: PACKAGE_DIR, sourcefile: 'page.js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@parley/source'],
    outdir,
    write,
    metafile: true,
    logLevel: 'silent',
  });
  return { metafile: result.metafile, files: result.outputFiles ?? [] };
}

/** The output chunk that holds `input` (a path suffix), if any. */
function chunkOf(metafile: Metafile, input: RegExp): string | undefined {
  return Object.entries(metafile.outputs).find(([, output]) =>
    Object.keys(output.inputs).some((path) => input.test(path)),
  )?.[0];
}

describe('language resources in a browser bundle of ./msw', () => {
  it("keeps each language's stemmer and stop words out of the main chunk, in chunks of their own", async () => {
    const { metafile } = await browserBundle(join(tmpdir(), 'parley-bundle'), false);
    const main = Object.entries(metafile.outputs).find(([, output]) =>
      output.entryPoint?.endsWith('page.js'),
    );
    expect(main).toBeDefined();
    const mainInputs = Object.keys(main?.[1].inputs ?? {});
    expect(mainInputs.some((path) => /@orama\/(stemmers|stopwords)\//.test(path))).toBe(false);
    // Orama itself is a chunk loaded with the first index, not part of the page's main chunk.
    expect(mainInputs.some((path) => /@orama\/orama\//.test(path))).toBe(false);
    expect(chunkOf(metafile, /@orama\/orama\//)).toBeDefined();
    // One chunk per language file: every stop-word list (all languages) and stemmer (all but two).
    const languageChunks = Object.values(metafile.outputs).map(
      (output) =>
        Object.keys(output.inputs).filter((path) => /@orama\/(stemmers|stopwords)\//.test(path)).length,
    );
    expect(languageChunks.filter((count) => count === 1)).toHaveLength(
      INDEX_LANGUAGES.length * 2 - ['japanese', 'mandarin'].length,
    );
    expect(languageChunks.every((count) => count <= 1)).toBe(true);
  });

  itWithChromium(
    'in Chromium, a Japanese index finds a word inside a sentence and loads no other language than those in use',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'parley-language-chunks-'));
      const { metafile } = await browserBundle(dir, true);
      const app = await serveDirectory(dir);
      const userDataDir = await mkdtemp(join(tmpdir(), 'parley-language-browser-'));
      const browser = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        const loaded: string[] = [];
        page.on('request', (request) => loaded.push(basename(new URL(request.url()).pathname)));
        await page.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code, the page must not see that.
        const ids = await page.evaluate(
          `import(${JSON.stringify(`${app.url}/stdin.js`)}).then((m) => m.searchJapanese('返金'))`,
        );
        expect(ids).toEqual(['refund']);
        const file = (language: string, kind: 'stemmers' | 'stopwords') =>
          basename(
            chunkOf(metafile, new RegExp(`@orama/${kind}/dist/${LOCALE_FILE[language]}\\.js$`)) ?? '?',
          );
        // Japanese has no stemmer; the built-in handbook (also on this server, English and German)
        // is built only when searched, so neither of its languages loads.
        expect(loaded).toContain(file('japanese', 'stopwords'));
        expect(loaded).not.toContain(file('english', 'stemmers'));
        expect(loaded).not.toContain(file('german', 'stemmers'));
        expect(loaded).not.toContain(file('french', 'stemmers'));
        expect(loaded).not.toContain(file('french', 'stopwords'));
      } finally {
        await browser.close();
        await new Promise((resolve) => app.server.close(resolve));
        await rm(userDataDir, { recursive: true, force: true });
        await rm(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

/** Serves the bundle's files (and an empty page) on a port of its own. */
async function serveDirectory(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const name = basename(new URL(req.url ?? '/', 'http://x').pathname);
    if (name.endsWith('.js')) {
      readFile(join(dir, name)).then(
        (body) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(body),
        () => res.writeHead(404).end(),
      );
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
