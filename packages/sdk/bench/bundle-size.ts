// Bundle size: what the SDK adds to a browser app, bundled with esbuild (minified, ESM, browser
// platform) and gzipped, for a streamed chat, for the same chat rendering tool input as it streams
// (`@parley/sdk/partial-input`, the only entry that carries the JSON parser) and for a tool worker
// (its own schema library, zod, left out). Prints both sizes against their budgets and the biggest contributors (esbuild's
// metafile). `measureBundles()` is also used by test/bundle-size.test.ts, which enforces the budgets.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

export interface BundleReport {
  name: string;
  budgetBytes: number;
  goalBytes: number;
  minifiedBytes: number;
  gzipBytes: number;
  /** Minified bytes per package (or SDK source file), biggest first. */
  contributors: Array<{ what: string; bytes: number }>;
}

/**
 * `budgetBytes` is enforced by the bundle test; `goalBytes` is the smaller size aimed for (printed
 * against the measured size, met or not). The chat app's goal of 17 KB is not met with ky in the
 * request path and the tool helpers reachable from `Parley`'s methods (about 5 KB gzip).
 */
export const BUNDLES = [
  {
    name: 'chat app',
    entry: 'bundle/chat-app.ts',
    budgetBytes: 20 * 1024,
    goalBytes: 17 * 1024,
    external: [] as string[],
  },
  {
    name: 'partial-input app',
    entry: 'bundle/partial-input-app.ts',
    budgetBytes: 26 * 1024,
    goalBytes: 24 * 1024,
    external: [] as string[],
  },
  {
    name: 'tool worker',
    entry: 'bundle/tool-worker.ts',
    budgetBytes: 22 * 1024,
    goalBytes: 22 * 1024,
    external: ['zod'],
  },
];

function contributor(path: string): string {
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? path);
  }
  return path.replace(/^(\.\.\/)*(packages\/)?/, '');
}

function contributors(metafile: Metafile): BundleReport['contributors'] {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const what = contributor(path);
      totals.set(what, (totals.get(what) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([what, bytes]) => ({ what, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** Bundles each entry as a user's bundler would and measures it. */
export async function measureBundles(): Promise<BundleReport[]> {
  const reports: BundleReport[] = [];
  for (const bundle of BUNDLES) {
    const result = await build({
      entryPoints: [fileURLToPath(new URL(bundle.entry, import.meta.url))],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      // The workspace packages resolve to their sources (what `pnpm build` compiles unchanged).
      conditions: ['@parley/source'],
      external: bundle.external,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    reports.push({
      name: bundle.name,
      budgetBytes: bundle.budgetBytes,
      goalBytes: bundle.goalBytes,
      minifiedBytes: code.byteLength,
      gzipBytes: gzipSync(code).byteLength,
      contributors: contributors(result.metafile),
    });
  }
  return reports;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const reports = await measureBundles();
  for (const report of reports) {
    const verdict = report.gzipBytes <= report.budgetBytes ? 'within' : 'OVER';
    console.log(
      `\nbundle ${report.name}: ${kb(report.gzipBytes)} gzip, ${report.gzipBytes} of ${report.budgetBytes} bytes (${verdict} the ${kb(report.budgetBytes)} budget; goal ${kb(report.goalBytes)}: ${report.gzipBytes <= report.goalBytes ? 'met' : 'NOT met'}), ${kb(report.minifiedBytes)} minified`,
    );
    for (const { what, bytes } of report.contributors.slice(0, 8)) {
      console.log(
        `  ${kb(bytes).padStart(9)}  ${((bytes / report.minifiedBytes) * 100).toFixed(0).padStart(3)}%  ${what}`,
      );
    }
  }
  if (reports.some((r) => r.gzipBytes > r.budgetBytes)) process.exitCode = 1;
}
