import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

describe('example READMEs', () => {
  const examples = readdirSync(join(ROOT, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('there are examples to check', () => {
    expect(examples.length).toBeGreaterThan(5);
  });

  it.each(examples)('the %s example has a README whose relative links name files that exist', (name) => {
    const dir = join(ROOT, 'examples', name);
    const readme = join(dir, 'README.md');
    expect(existsSync(readme), `examples/${name}/README.md`).toBe(true);
    const broken = [...readFileSync(readme, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target as string)
      .filter((target) => !/^(https?:|mailto:|#)/.test(target))
      .filter((target) => !existsSync(join(dir, target.split('#')[0] as string)));
    expect(broken).toEqual([]);
  });
});
