import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const example = fileURLToPath(new URL('..', import.meta.url));
const jestBin = fileURLToPath(new URL('../node_modules/jest/bin/jest.js', import.meta.url));

// The example's tests are Jest's (test/*.spec.ts): CI runs them here, with Jest, as `npm test` would.
it('passes its Jest tests in the node and jsdom environments', async () => {
  const report = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [jestBin, '--config', 'jest.repo.config.cjs', '--ci', '--json'],
      { cwd: example, env: { ...process.env, CI: '1' } },
      (_error, stdout) => resolve(stdout),
    );
  });
  const { numPassedTests, numFailedTests, numFailedTestSuites } = JSON.parse(report) as Record<
    string,
    number
  >;
  expect({ numPassedTests, numFailedTests, numFailedTestSuites }).toEqual({
    numPassedTests: 3,
    numFailedTests: 0,
    numFailedTestSuites: 0,
  });
}, 120_000);
