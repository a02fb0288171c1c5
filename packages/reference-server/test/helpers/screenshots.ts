import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where browser tests leave their screenshots (gitignored): `packages/reference-server/test-output/`. */
export const TEST_OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));

/** Saves a screenshot (the whole page unless `fullPage: false`) as `test-output/<folder>/<name>.png` and prints its path. */
export async function screenshot(
  page: Page,
  folder: string,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  const dir = join(TEST_OUTPUT_DIR, folder);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  console.log(`screenshot: ${path}`);
  return path;
}
