// Consumer test (after `pnpm build`): the packed packages installed with npm into a temporary
// project outside the workspace, as users get them. There the same tool is defined with zod (newest
// 4.x), Valibot and ArkType (packages/sdk/test/consumer/), type-checked with tsc (strict; `skipLibCheck`
// keeps it within about two minutes, and `@ts-expect-error` lines fail it should the SDK's types
// degrade to `any`), compiled, and run in a tool loop against the reference server.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackedTarball } from './check-packed.mjs';
import { createProject, packWorkspace } from './pack-workspace.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = join(ROOT, 'packages/sdk/test/consumer');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'parley-consumer-'));
const step = (what) => console.log(`[consumer] ${what} (${((Date.now() - started) / 1000).toFixed(0)} s)`);

/**
 * The SDK must not install zod (docs/sdk.md, "Dependencies"): nothing under @parley/sdk in the
 * installed tree is zod, and its type declarations import neither zod nor @parley/protocol.
 */
function sdkBringsNoZod(app) {
  const tree = JSON.parse(
    execFileSync('npm', ['ls', '--all', '--json', '@parley/sdk'], { cwd: app, encoding: 'utf8' }),
  );
  const sdk = tree.dependencies?.['@parley/sdk'];
  if (!sdk) throw new Error('npm ls found no @parley/sdk');
  const found = [];
  const walk = (node, path) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      if (name === 'zod' || name === '@parley/protocol') found.push([...path, name].join(' > '));
      walk(child, [...path, name]);
    }
  };
  walk(sdk, ['@parley/sdk']);
  if (found.length > 0) throw new Error(`installing @parley/sdk brings ${found.join(', ')}`);
  const dist = join(app, 'node_modules/@parley/sdk/dist');
  for (const file of readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f))) {
    const text = readFileSync(join(dist, file), 'utf8');
    if (/from ['"](zod|@parley\/protocol)['"]/.test(text))
      throw new Error(`${file} imports zod or @parley/protocol`);
  }
}

/**
 * `@opentelemetry/api` is an optional peer of the SDK (docs/sdk.md, "Tracing"): this project does
 * not install it, and nothing the SDK ships imports it, so the type check and the run below prove
 * that an app without it compiles and runs.
 */
function sdkNeedsNoOpenTelemetry(app) {
  if (existsSync(join(app, 'node_modules/@opentelemetry/api'))) {
    throw new Error('@opentelemetry/api is installed: the consumer test must run without it');
  }
  const dist = join(app, 'node_modules/@parley/sdk/dist');
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) =>
    /\.(c?js|d\.c?ts)$/.test(f),
  );
  const importing = files.filter((file) =>
    /(from\s*|import\(\s*|require\(\s*)['"]@opentelemetry\//.test(readFileSync(join(dist, file), 'utf8')),
  );
  if (importing.length > 0) throw new Error(`${importing.join(', ')} import @opentelemetry/*`);
}

/**
 * What a user finds in an installed package holds: no `workspace:` range is left in its manifest,
 * and every relative link of its README names a file the tarball holds (`../../docs/...` does not).
 */
function packedPackagesAreSelfContained(app) {
  const problems = [];
  for (const name of ['protocol', 'sdk', 'reference-server']) {
    const dir = join(app, 'node_modules/@parley', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
        if (String(range).startsWith('workspace:'))
          problems.push(`@parley/${name}: ${field}.${dep} is ${range}`);
      }
    }
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const file = target.split('#')[0];
      if (!existsSync(join(dir, file)))
        problems.push(`@parley/${name}: README links to ${target}, not in the package`);
    }
  }
  if (problems.length > 0)
    throw new Error(`the installed packages are not self-contained:\n${problems.join('\n')}`);
}

try {
  step(`packing into ${dir}`);
  const tarballs = packWorkspace(undefined, join(dir, 'tarballs'));
  // What ships is clean: no source map or path that points outside the package (check-packed.mjs).
  const unclean = Object.entries(tarballs).flatMap(([name, tarball]) =>
    checkPackedTarball(tarball).map((problem) => `${name}: ${problem}`),
  );
  if (unclean.length > 0) throw new Error(`the packed packages are not clean:\n${unclean.join('\n')}`);
  step('installing the tarballs and zod, Valibot, ArkType from the registry');
  createProject({
    dir: join(dir, 'app'),
    tarballs,
    dependencies: {
      zod: '^4',
      valibot: '^1',
      '@valibot/to-json-schema': '^1',
      arktype: '^2',
      '@types/node': '^20',
    },
  });
  cpSync(SOURCES, join(dir, 'app'), { recursive: true });
  try {
    const versions = execFileSync('npm', ['ls', 'zod', 'valibot', 'arktype', '--depth=0'], {
      cwd: join(dir, 'app'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    console.log(versions.trim().split('\n').slice(1).join('\n'));
  } catch {
    // Only informative: `npm ls` exits non-zero on peer-dependency notes that do not matter here.
  }
  step('checking that the installed packages hold every README link and no workspace: range');
  packedPackagesAreSelfContained(join(dir, 'app'));
  step('checking that the SDK brings no zod');
  sdkBringsNoZod(join(dir, 'app'));
  step('checking that the SDK needs no @opentelemetry/api (an optional peer)');
  sdkNeedsNoOpenTelemetry(join(dir, 'app'));
  step('type-checking and compiling with tsc');
  execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: join(dir, 'app'), stdio: 'inherit' });
  step('running a tool loop per schema library against the reference server');
  execFileSync(process.execPath, ['dist/main.js'], { cwd: join(dir, 'app'), stdio: 'inherit' });
  step('passed');
} finally {
  if (!process.env.PARLEY_KEEP_CONSUMER) rmSync(dir, { recursive: true, force: true });
}
