// What ships is clean (after `pnpm build`): each packed tarball, as npm would publish it, holds no
// source map or `sourceMappingURL` that points outside the package or at a file it does not ship
// (a map must carry the text of every source it names that is not in the tarball), and no file
// names the absolute path of the machine that built it.
//
// As a module: `checkPackedTarball(tarball)` returns the problems found (an empty list when clean);
// scripts/consumer-test.mjs runs it on the tarballs it packs. As a command (`node
// scripts/check-packed.mjs`): packs every package and checks it, exit code 1 on a problem.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGES, packWorkspace } from './pack-workspace.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The build machine's checkout, as a build would write it into a file (no trailing slash). */
const BUILD_PATH = ROOT.replace(/[\\/]+$/, '');
const TEXT = /\.(c|m)?js$|\.d\.(c|m)?ts$|\.map$|\.json$|\.md$/;

/** The problems of one tarball: `file: what is wrong`, one line each. */
export function checkPackedTarball(tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-packed-'));
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', dir]);
    const pkg = join(dir, 'package');
    const files = readdirSync(pkg, { recursive: true, encoding: 'utf8' }).filter((file) => TEXT.test(file));
    const problems = files.some((file) => /^dist[\\/].*\.c?js$/.test(file))
      ? []
      : ['no dist/*.js: build first (pnpm build)'];
    const inside = (path) => {
      const rel = relative(pkg, path);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    };
    for (const file of files) {
      const path = join(pkg, file);
      const text = readFileSync(path, 'utf8');
      if (text.includes(BUILD_PATH)) problems.push(`${file}: names the build machine's path ${BUILD_PATH}`);
      if (file.endsWith('.map')) problems.push(...mapProblems(file, path, text, inside));
      const url = /\/\/# sourceMappingURL=(?!data:)(\S+)\s*$/.exec(text)?.[1];
      if (url !== undefined && !existsSync(resolve(dirname(path), url))) {
        problems.push(`${file}: its sourceMappingURL ${url} is not in the package`);
      }
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A map's sources: inside the package, and either shipped or carried in `sourcesContent`. */
function mapProblems(file, path, text, inside) {
  let map;
  try {
    map = JSON.parse(text);
  } catch {
    return [`${file}: not JSON`];
  }
  const problems = [];
  (map.sources ?? []).forEach((source, i) => {
    const at = resolve(dirname(path), map.sourceRoot ?? '', source);
    if (isAbsolute(source) || !inside(at)) {
      problems.push(`${file}: source ${source} is outside the package`);
    } else if (!existsSync(at) && typeof map.sourcesContent?.[i] !== 'string') {
      problems.push(`${file}: source ${source} is neither shipped nor in sourcesContent`);
    }
  });
  return problems;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = mkdtempSync(join(tmpdir(), 'parley-packed-tarballs-'));
  try {
    let failed = false;
    for (const [name, tarball] of Object.entries(packWorkspace(Object.keys(PACKAGES), out))) {
      const problems = checkPackedTarball(tarball);
      if (problems.length === 0) {
        console.log(`[check-packed] ${name} (${basename(tarball)}): clean`);
        continue;
      }
      failed = true;
      console.error(`[check-packed] ${name} (${basename(tarball)}): ${problems.length} problems`);
      for (const problem of problems.slice(0, 20)) console.error(`  ${problem}`);
      if (problems.length > 20) console.error(`  and ${problems.length - 20} more`);
    }
    process.exitCode = failed ? 1 : 0;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
