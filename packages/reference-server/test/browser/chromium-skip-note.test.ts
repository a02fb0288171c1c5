import { describe, expect, it } from 'vitest';
import { chromiumSkipNote } from '../helpers/chromium.js';

describe('a browser test skipped for want of Chromium says so', () => {
  it('names the test, why it was skipped and how to install Chromium', () => {
    expect(chromiumSkipNote('the journal page', '/usr/bin/chromium')).toBe(
      '[parley] skipped "the journal page": it needs Chromium, and there is none at /usr/bin/chromium. ' +
        'To run the browser tests, install it (Debian/Ubuntu: sudo apt-get install chromium) or set ' +
        'PARLEY_CHROMIUM to a Chromium or Chrome binary.',
    );
  });
});
