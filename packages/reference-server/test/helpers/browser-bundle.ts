import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** One output file of a bundle. */
export interface BundleFile {
  name: string;
  contents: Uint8Array;
  /** The source files (paths as esbuild prints them) that went into it. */
  inputs: string[];
}

/** A page script bundled for browsers as an application's bundler does it: code splitting, minified. */
export interface PageBundle {
  files: Map<string, BundleFile>;
  /** The entry file and every chunk it imports statically: what loads before the page's code runs. */
  firstChunk: BundleFile[];
  /** Chunks loaded only through `import()`, when the code that needs them runs. */
  lazyChunks: BundleFile[];
}

/**
 * Bundles `source` (an ES module importing public package names) with esbuild for
 * `platform: 'browser'`, no externals: a Node built-in reached from it fails the build.
 */
export async function bundlePage(source: string): Promise<PageBundle> {
  const result = await build({
    stdin: { contents: source, resolveDir: PACKAGE_DIR, sourcefile: 'page.js', loader: 'js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    conditions: ['@parley/source'],
    outdir: '/page',
    entryNames: 'page',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const files = new Map<string, BundleFile>();
  for (const file of result.outputFiles) {
    const name = basename(file.path);
    const output = outputOf(result.metafile, name);
    files.set(name, { name, contents: file.contents, inputs: Object.keys(output.inputs) });
  }
  const first = new Set<string>();
  const queue = ['page.js'];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (first.has(name)) continue;
    first.add(name);
    for (const imported of outputOf(result.metafile, name).imports) {
      if (imported.kind === 'import-statement') queue.push(basename(imported.path));
    }
  }
  const all = [...files.values()];
  return {
    files,
    firstChunk: all.filter((file) => first.has(file.name)),
    lazyChunks: all.filter((file) => !first.has(file.name)),
  };
}

/** Gzipped size in bytes (level 9, as a static server would precompress). */
export function gzipBytes(files: readonly BundleFile[]): number {
  return files.reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).length, 0);
}

/** Whether a package (`@modelcontextprotocol/sdk`, `ajv`) or a source path is in these files. */
export function contains(files: readonly BundleFile[], input: RegExp): boolean {
  return files.some((file) => file.inputs.some((path) => input.test(path)));
}

function outputOf(metafile: Metafile, name: string): Metafile['outputs'][string] {
  const entry = Object.entries(metafile.outputs).find(([path]) => basename(path) === name);
  if (entry === undefined) throw new Error(`esbuild has no output named ${name}`);
  return entry[1];
}
