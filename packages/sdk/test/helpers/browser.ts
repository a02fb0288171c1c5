// What the SDK's browser tests share: an esbuild bundle for the browser platform (a `node:` import
// anywhere fails the build), a page on its own origin, and headless Chromium.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
// Chromium and the page server: the reference server's browser tests use the same ones.
import { servePage as serveStaticPage } from '../../../reference-server/test/helpers/serve-page.js';

export {
  HAS_CHROMIUM,
  itWithChromium,
  launchChromium,
} from '../../../reference-server/test/helpers/chromium.js';

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
 * by path as JavaScript, `/` an empty HTML page; `headers` on every response.
 */
export function servePage(
  scripts: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const files = new Map(
    Object.entries(scripts).map(([path, body]) => [path, { type: 'text/javascript', body }]),
  );
  return serveStaticPage('<!doctype html><title>app</title>', files, headers);
}
