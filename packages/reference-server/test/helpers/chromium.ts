import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { it } from 'vitest';

/**
 * The Chromium the browser tests drive: `PARLEY_CHROMIUM`, else Debian's. CI installs it; where it
 * is missing, the tests that need it are skipped, each with a note (see {@link itWithChromium}).
 */
export const CHROMIUM = process.env.PARLEY_CHROMIUM || '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** The note printed for a browser test skipped because there is no Chromium at `path`. */
export function chromiumSkipNote(name: string, path = CHROMIUM): string {
  return (
    `[parley] skipped "${name}": it needs Chromium, and there is none at ${path}. To run the browser ` +
    'tests, install it (Debian/Ubuntu: sudo apt-get install chromium) or set PARLEY_CHROMIUM to a ' +
    'Chromium or Chrome binary.'
  );
}

/**
 * `it` for a test that drives Chromium. Where there is none it is skipped, and a note on stderr says
 * which test, why, and how to install Chromium: "every test passed" then does not hide it.
 */
export function itWithChromium(name: string, fn: () => Promise<void>, timeout?: number): void {
  if (!HAS_CHROMIUM) console.warn(chromiumSkipNote(name));
  it.runIf(HAS_CHROMIUM)(name, fn, timeout);
}

/** A headless Chromium with a throw-away profile; `close()` removes the profile too. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'parley-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
