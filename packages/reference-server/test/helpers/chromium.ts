import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { describe, it } from 'vitest';

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
 * Whether a run without Chromium fails rather than skips its browser tests: `PARLEY_REQUIRE_CHROMIUM=1`
 * (CI sets it, so that a CI run that could not install Chromium is not green with no browser test).
 */
export const CHROMIUM_REQUIRED = process.env.PARLEY_REQUIRE_CHROMIUM === '1';

/** What becomes of a browser test: run, skipped with a note, or failed because Chromium is required. */
export function chromiumGate(has = HAS_CHROMIUM, required = CHROMIUM_REQUIRED): 'run' | 'skip' | 'fail' {
  if (has) return 'run';
  return required ? 'fail' : 'skip';
}

/** The error of a browser test that cannot run where Chromium is required. */
export function chromiumRequiredError(name: string, path = CHROMIUM): Error {
  return new Error(
    `"${name}" needs Chromium, there is none at ${path}, and PARLEY_REQUIRE_CHROMIUM=1 says the browser ` +
      'tests must run: install it (Debian/Ubuntu: sudo apt-get install chromium), set PARLEY_CHROMIUM to a ' +
      'Chromium or Chrome binary, or set PARLEY_REQUIRE_CHROMIUM=0 to skip them.',
  );
}

/**
 * `it` for a test that drives Chromium. Where there is none it is skipped, and a note on stderr says
 * which test, why, and how to install Chromium: "every test passed" then does not hide it. With
 * {@link CHROMIUM_REQUIRED} it fails instead.
 */
export function itWithChromium(name: string, fn: () => Promise<void>, timeout?: number): void {
  const gate = chromiumGate();
  if (gate === 'fail') {
    it(name, () => {
      throw chromiumRequiredError(name);
    });
    return;
  }
  if (gate === 'skip') console.warn(chromiumSkipNote(name));
  it.runIf(gate === 'run')(name, fn, timeout);
}

/** `describe` for a block of browser tests, as {@link itWithChromium} treats one. */
export function describeWithChromium(name: string, fn: () => void): void {
  const gate = chromiumGate();
  if (gate === 'fail') {
    describe(name, () => {
      it('has Chromium', () => {
        throw chromiumRequiredError(name);
      });
    });
    return;
  }
  if (gate === 'skip') console.warn(chromiumSkipNote(name));
  describe.runIf(gate === 'run')(name, fn);
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
