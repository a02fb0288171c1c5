import { describe, expect, it } from 'vitest';
import { chromiumGate, chromiumRequiredError, chromiumSkipNote } from '../helpers/chromium.js';

describe('a browser test without Chromium says so', () => {
  it('names the test, why it was skipped and how to install Chromium', () => {
    expect(chromiumSkipNote('the journal page', '/usr/bin/chromium')).toBe(
      '[parley] skipped "the journal page": it needs Chromium, and there is none at /usr/bin/chromium. ' +
        'To run the browser tests, install it (Debian/Ubuntu: sudo apt-get install chromium) or set ' +
        'PARLEY_CHROMIUM to a Chromium or Chrome binary.',
    );
  });

  it('fails instead where Chromium is required (CI), saying how to install it or opt out', () => {
    expect(chromiumGate(true, true)).toBe('run');
    expect(chromiumGate(true, false)).toBe('run');
    expect(chromiumGate(false, false)).toBe('skip');
    expect(chromiumGate(false, true)).toBe('fail');
    expect(chromiumRequiredError('the journal page', '/usr/bin/chromium').message).toBe(
      '"the journal page" needs Chromium, there is none at /usr/bin/chromium, and PARLEY_REQUIRE_CHROMIUM=1 ' +
        'says the browser tests must run: install it (Debian/Ubuntu: sudo apt-get install chromium), set ' +
        'PARLEY_CHROMIUM to a Chromium or Chrome binary, or set PARLEY_REQUIRE_CHROMIUM=0 to skip them.',
    );
  });
});
