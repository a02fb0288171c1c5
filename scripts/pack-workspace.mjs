// Packs workspace packages into tarballs with `pnpm pack` (workspace:* ranges become real versions)
// and installs them with npm into a project outside the workspace, as a user gets them.
// Build first (`pnpm build`): a tarball holds `dist/`.
//
// As a module: `packWorkspace(names, outDir)` and `createProject({ dir, tarballs, dependencies })`.
// As a command (`pnpm pack:local [OUT_DIR] [@parley/sdk ...]` builds first): packs into OUT_DIR
// (default `packed/`) and prints the `npm install` line for a project of one's own.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Every publishable workspace package, by name. */
export const PACKAGES = {
  '@parley/protocol': 'packages/protocol',
  '@parley/sdk': 'packages/sdk',
  '@parley/reference-server': 'packages/reference-server',
};

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Packs the named packages into `outDir`; returns `{ name: absolute tarball path }`. */
export function packWorkspace(names = Object.keys(PACKAGES), outDir) {
  mkdirSync(outDir, { recursive: true });
  const tarballs = {};
  for (const name of names) {
    const dir = PACKAGES[name];
    if (!dir) throw new Error(`packWorkspace: unknown package ${name}`);
    const output = run(
      'npx',
      ['--yes', 'pnpm@10', 'pack', '--pack-destination', resolve(outDir)],
      join(ROOT, dir),
    );
    const tarball = output
      .trim()
      .split('\n')
      .findLast((line) => line.trim().endsWith('.tgz'));
    if (!tarball) throw new Error(`pnpm pack ${name} printed no tarball:\n${output}`);
    tarballs[name] = resolve(outDir, tarball.trim().split('/').at(-1));
  }
  return tarballs;
}

/**
 * Writes `dir/package.json` with the tarballs (and `overrides`, so packages that depend on each
 * other take the tarballs too, never a registry copy) plus registry `dependencies`, and runs
 * `npm install`. Peer dependencies are not installed on their own (`--legacy-peer-deps`).
 */
export function createProject({ dir, tarballs, dependencies = {}, name = 'parley-consumer' }) {
  mkdirSync(dir, { recursive: true });
  const local = Object.fromEntries(Object.entries(tarballs).map(([pkg, path]) => [pkg, `file:${path}`]));
  const manifest = {
    name,
    private: true,
    type: 'module',
    dependencies: { ...local, ...dependencies },
    overrides: local,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  run('npm', ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--loglevel=error'], dir);
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outDir = resolve(args[0] && !args[0].startsWith('@') ? args.shift() : join(ROOT, 'packed'));
  const unknown = args.filter((name) => !PACKAGES[name]);
  if (unknown.length > 0) {
    console.error(
      `pack-workspace: unknown package ${unknown.join(', ')} (known: ${Object.keys(PACKAGES).join(', ')})\n` +
        'usage: node scripts/pack-workspace.mjs [OUT_DIR] [package ...]',
    );
    process.exit(2);
  }
  const missing = (args.length > 0 ? args : Object.keys(PACKAGES)).filter(
    (name) => !existsSync(join(ROOT, PACKAGES[name], 'dist')),
  );
  if (missing.length > 0) {
    console.error(
      `pack-workspace: ${missing.join(', ')} not built; run \`npx --yes pnpm@10 pack:local\`, which builds first`,
    );
    process.exit(1);
  }
  const tarballs = packWorkspace(args.length > 0 ? args : undefined, outDir);
  console.log(`Packed into ${outDir}:`);
  for (const [pkg, path] of Object.entries(tarballs)) console.log(`  ${pkg.padEnd(26)} ${basename(path)}`);
  console.log('\nInstall them together in your project (they depend on each other, not on the registry):');
  console.log(`  npm install ${Object.values(tarballs).join(' ')}`);
}
