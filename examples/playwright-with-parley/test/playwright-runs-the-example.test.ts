import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
// Chromium as the repository's other browser tests find it; skipped with a note where it is missing.
import { describeWithChromium } from '../../../packages/reference-server/test/helpers/chromium.js';

const example = fileURLToPath(new URL('..', import.meta.url));
const playwrightBin = fileURLToPath(new URL('../node_modules/@playwright/test/cli.js', import.meta.url));

// The example's tests are Playwright's (e2e/): CI runs them here, in Chromium, as `npm test` would.
describeWithChromium('the Playwright example', () => {
  it('passes its Playwright tests', async () => {
    const output = mkdtempSync(join(tmpdir(), 'parley-playwright-example-'));
    const report = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        [playwrightBin, 'test', '--reporter=json'],
        {
          cwd: example,
          env: {
            ...process.env,
            CI: '1',
            NODE_OPTIONS: '--conditions=@parley/source',
            PLAYWRIGHT_OUTPUT_DIR: output,
          },
        },
        (_error, stdout) => resolve(stdout),
      );
    });
    rmSync(output, { recursive: true, force: true });
    const { stats } = JSON.parse(report) as { stats: { expected: number; unexpected: number } };
    expect({ expected: stats.expected, unexpected: stats.unexpected }).toEqual({
      expected: 2,
      unexpected: 0,
    });
  }, 120_000);
});
