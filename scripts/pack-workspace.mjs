// Packs workspace packages into tarballs with `pnpm pack` (workspace:* ranges become real versions)
// and installs them with npm into a project outside the workspace, as a user gets them.
// Build first (`pnpm build`): a tarball holds `dist/`.
//
// As a module: `packWorkspace(names, outDir)` and `createProject({ dir, tarballs, dependencies })`.
// As a command: `node scripts/pack-workspace.mjs OUT_DIR [@parley/sdk ...]` prints the tarballs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  const [outDir, ...names] = process.argv.slice(2);
  if (!outDir) {
    console.error('usage: node scripts/pack-workspace.mjs OUT_DIR [package ...]');
    process.exit(2);
  }
  const tarballs = packWorkspace(names.length > 0 ? names : undefined, outDir);
  for (const [pkg, path] of Object.entries(tarballs)) console.log(`${pkg} ${path}`);
}
