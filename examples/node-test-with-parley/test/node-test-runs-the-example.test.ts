import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const example = fileURLToPath(new URL('..', import.meta.url));

// The example's tests are node:test's (test/*.spec.ts): CI runs them here, with node --test, as
// `npm test` would (tsx for TypeScript; the repository's packages resolved to their sources).
it('passes its node:test tests', async () => {
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=@parley/source',
        '--test',
        '--test-reporter=tap',
        'test/summarize.spec.ts',
      ],
      { cwd: example, env: { ...process.env, CI: '1' } },
      (error, out) => resolve({ code: error === null ? 0 : 1, stdout: out }),
    );
  });
  expect(stdout).toContain('# pass 2\n# fail 0');
  expect(code).toBe(0);
}, 120_000);
