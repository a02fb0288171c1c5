// Bundle size: what the SDK adds to a browser app, for a streamed chat, for the same chat rendering
// tool input as it streams (`@parley/sdk/partial-input`, the only entry that carries the JSON
// parser) and for a tool worker (its own schema library, zod, left out). Each app is built as a
// user's bundler would build it, minified, and each output file gzipped:
// - with Vite (Rollup), the budgets' bundler: it drops unused modules before it splits code, so the
//   tool helpers (run-tool, heartbeat, p-limit), which `client.runToolLoop` and `client.tools.run`
//   import on their first call, become chunks that an app downloads only when it runs a tool;
// - with esbuild, printed beside it: esbuild puts a file in every chunk of the entries that can
//   reach it, and the main entry also exports the tool helpers, so they stay in the first download.
// An app's first download is its entry chunk and the chunks it imports statically. The SDK resolves
// to its sources (`@parley/source`) or, with `--dist`, to its built files (what users install; the
// ESM build keeps one file per source file, so both give the same graph). `measureBundles()` is
// also used by test/bundle-size.test.ts, which enforces the budgets.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build as esbuild, type Metafile } from 'esbuild';
import { defaultClientConditions, type Rollup, build as vite } from 'vite';

export interface BundleReport {
  name: string;
  bundler: 'vite' | 'esbuild';
  /** What the budget applies to: the first download, or everything the app can load. */
  budgetOf: 'initial' | 'total';
  budgetBytes: number;
  /** Gzip bytes of the entry chunk and the chunks it imports statically (each file gzipped alone). */
  initialGzipBytes: number;
  /** Gzip bytes of every chunk, those loaded on first use (dynamic imports) included. */
  totalGzipBytes: number;
  /** The figure the budget applies to. */
  gzipBytes: number;
  /** Minified bytes of every chunk. */
  minifiedBytes: number;
  /**
   * Bytes per package (or SDK source file) over every chunk, biggest first (Vite: before minifying;
   * esbuild: minified); `lazy` when only in chunks loaded on first use.
   */
  contributors: Array<{ what: string; bytes: number; lazy: boolean }>;
}

interface BundleSpec {
  name: string;
  entry: string;
  budgetOf: 'initial' | 'total';
  /** Budget with Vite, and the larger one esbuild is held to. */
  budgetBytes: { vite: number; esbuild: number };
  external: string[];
}

/**
 * The budgets, one per feature: what an app that uses it downloads of the SDK. A budget is a
 * ceiling the code is held to, not a record of what it weighs: a change that needs more argues the
 * rise in CHANGELOG.md (what it buys, what was measured) before this table changes.
 *
 * | app (feature)       | counts                               | Vite   | esbuild |
 * |---------------------|--------------------------------------|--------|---------|
 * | chat app            | first download                       | 20 KB  | 20 KB   |
 * | partial-input app   | first download (+ the JSON parser)   | 27 KB  | 27 KB   |
 * | tool worker         | every chunk it can load (zod its own) | 40 KB  | 40 KB   |
 */
export const BUNDLES: BundleSpec[] = [
  {
    // Client, sessions, a streamed reply: no tool, recovery, tracing or options-check code runs.
    name: 'chat app',
    entry: 'bundle/chat-app.ts',
    budgetOf: 'initial',
    budgetBytes: { vite: 20 * 1024, esbuild: 20 * 1024 },
    external: [],
  },
  {
    name: 'partial-input app',
    entry: 'bundle/partial-input-app.ts',
    budgetOf: 'initial',
    budgetBytes: { vite: 27 * 1024, esbuild: 27 * 1024 },
    external: [],
  },
  {
    // A worker runs its tools at once: everything it can load counts (the chunks of `recover` and
    // of tracing too, though a worker that passes neither never downloads them).
    name: 'tool worker',
    entry: 'bundle/tool-worker.ts',
    budgetOf: 'total',
    // 42 KB since one owner per tool call and the tool-call pipeline (CHANGELOG, issue 38).
    budgetBytes: { vite: 42 * 1024, esbuild: 42 * 1024 },
    external: ['zod'],
  },
];

export interface MeasureOptions {
  /** Resolve the SDK to its built files instead of its sources (run `pnpm build` first). */
  dist?: boolean;
}

function contributor(path: string): string {
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? path);
  }
  return path
    .replace(/^\0/, '')
    .replace(/^.*\/packages\//, '')
    .replace(/^(\.\.\/)*(packages\/)?/, '');
}

interface Output {
  file: string;
  code: Uint8Array | string;
  initial: boolean;
  /** Bytes per input module. */
  inputs: Array<[string, number]>;
}

function report(spec: BundleSpec, bundler: BundleReport['bundler'], outputs: Output[]): BundleReport {
  let initialGzipBytes = 0;
  let totalGzipBytes = 0;
  let minifiedBytes = 0;
  const totals = new Map<string, { bytes: number; lazy: boolean }>();
  for (const output of outputs) {
    const code = typeof output.code === 'string' ? Buffer.from(output.code) : output.code;
    const gzip = gzipSync(code).byteLength;
    totalGzipBytes += gzip;
    minifiedBytes += code.byteLength;
    if (output.initial) initialGzipBytes += gzip;
    for (const [path, bytes] of output.inputs) {
      if (bytes === 0) continue;
      const what = contributor(path);
      const seen = totals.get(what) ?? { bytes: 0, lazy: true };
      totals.set(what, { bytes: seen.bytes + bytes, lazy: seen.lazy && !output.initial });
    }
  }
  return {
    name: spec.name,
    bundler,
    budgetOf: spec.budgetOf,
    budgetBytes: spec.budgetBytes[bundler],
    initialGzipBytes,
    totalGzipBytes,
    gzipBytes: spec.budgetOf === 'initial' ? initialGzipBytes : totalGzipBytes,
    minifiedBytes,
    contributors: [...totals]
      .map(([what, { bytes, lazy }]) => ({ what, bytes, lazy }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

/** Names reachable from `start` through `importsOf`: the entry and its static imports. */
function reachable(start: string | undefined, importsOf: (name: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const next of importsOf(name)) visit(next);
  };
  if (start !== undefined) visit(start);
  return seen;
}

async function withVite(spec: BundleSpec, options: MeasureOptions): Promise<BundleReport> {
  const result = await vite({
    configFile: false,
    logLevel: 'silent',
    // What `vite build` does in a user's shell (NODE_ENV unset): a production build. The bench may
    // run under a test runner that sets NODE_ENV=test, which Vite would otherwise take.
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    root: fileURLToPath(new URL('.', import.meta.url)),
    resolve: {
      conditions: options.dist
        ? [...defaultClientConditions]
        : ['@parley/source', ...defaultClientConditions],
    },
    build: {
      write: false,
      target: 'es2022',
      rollupOptions: { input: fileURLToPath(new URL(spec.entry, import.meta.url)), external: spec.external },
    },
  });
  const chunks = (Array.isArray(result) ? result : [result as Rollup.RollupOutput])
    .flatMap((output) => output.output)
    .filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const initial = reachable(
    chunks.find((chunk) => chunk.isEntry)?.fileName,
    (name) => byName.get(name)?.imports ?? [],
  );
  return report(
    spec,
    'vite',
    chunks.map((chunk) => ({
      file: chunk.fileName,
      code: chunk.code,
      initial: initial.has(chunk.fileName),
      inputs: Object.entries(chunk.modules).map(([path, module]) => [path, module.renderedLength]),
    })),
  );
}

async function withEsbuild(spec: BundleSpec, options: MeasureOptions): Promise<BundleReport> {
  const outdir = fileURLToPath(new URL('bundle/out', import.meta.url));
  const result = await esbuild({
    entryPoints: [fileURLToPath(new URL(spec.entry, import.meta.url))],
    bundle: true,
    splitting: true,
    outdir,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: options.dist ? [] : ['@parley/source'],
    external: spec.external,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const metafile: Metafile = result.metafile;
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]?.entryPoint);
  const initial = reachable(entry, (path) =>
    (metafile.outputs[path]?.imports ?? [])
      .filter((imported) => imported.kind === 'import-statement' && !imported.external)
      .map((imported) => imported.path),
  );
  const cwd = `${process.cwd()}/`;
  return report(
    spec,
    'esbuild',
    Object.entries(metafile.outputs).map(([path, output]) => ({
      file: path,
      code:
        result.outputFiles.find((file) => file.path === fileURLToPath(new URL(path, `file://${cwd}`)))
          ?.contents ?? new Uint8Array(),
      initial: initial.has(path),
      inputs: Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
    })),
  );
}

/** Builds each app as a user's bundler would, with Vite then esbuild, and measures it. */
export async function measureBundles(options: MeasureOptions = {}): Promise<BundleReport[]> {
  const reports: BundleReport[] = [];
  for (const spec of BUNDLES) {
    reports.push(await withVite(spec, options), await withEsbuild(spec, options));
  }
  return reports;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dist = process.argv.includes('--dist');
  const reports = await measureBundles({ dist });
  console.log(
    `bundle sizes, the SDK from its ${dist ? 'built files (dist/)' : 'sources'}; budgets on Vite's output`,
  );
  for (const report of reports) {
    const verdict = report.gzipBytes <= report.budgetBytes ? 'within' : 'OVER';
    console.log(
      `\nbundle ${report.name} (${report.bundler}): first download ${kb(report.initialGzipBytes)} gzip, with the chunks loaded on first use ${kb(report.totalGzipBytes)}; ` +
        `budget ${kb(report.budgetBytes)} on the ${report.budgetOf === 'initial' ? 'first download' : 'total'}: ${report.gzipBytes} of ${report.budgetBytes} bytes, ${verdict}`,
    );
    if (report.bundler === 'esbuild') continue;
    console.log('  biggest contributors, bytes before minifying:');
    for (const { what, bytes, lazy } of report.contributors.slice(0, 10)) {
      console.log(`  ${kb(bytes).padStart(9)}  ${what}${lazy ? '  (loaded on first use)' : ''}`);
    }
  }
  if (reports.some((r) => r.gzipBytes > r.budgetBytes)) process.exitCode = 1;
}
