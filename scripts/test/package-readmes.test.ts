import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A package's README travels in its tarball without the rest of the repository: a relative link
// must name a file the package ships (scripts/consumer-test.mjs checks the installed packages too).
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['protocol', 'sdk', 'reference-server'];

describe('packed READMEs', () => {
  it.each(PACKAGES)('every relative link of the %s README names a file the package ships', (name) => {
    const dir = join(ROOT, 'packages', name);
    const { files = [] } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      files?: string[];
    };
    const shipped = (path: string) =>
      ['README.md', 'LICENSE', 'package.json'].includes(path) ||
      files.some((entry) => path === entry || path.startsWith(`${entry}/`));
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    const broken = [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target as string)
      .filter((target) => !/^(https?:|mailto:|#)/.test(target))
      .filter((target) => {
        const path = (target.split('#')[0] as string).replace(/^\.\//, '');
        return !shipped(path) || !existsSync(join(dir, path));
      });
    expect(broken).toEqual([]);
  });
});
