import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

test('the SDK installs no schema library: neither zod nor @parley/protocol (which needs zod) is a dependency', () => {
  expect(Object.keys(manifest.dependencies)).not.toContain('zod');
  expect(Object.keys(manifest.dependencies)).not.toContain('@parley/protocol');
  // The protocol stays a dev dependency: the build inlines its wire types and zod-free modules.
  expect(Object.keys(manifest.devDependencies)).toContain('@parley/protocol');
});
