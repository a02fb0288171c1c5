import { useReferenceServer } from '@parley/reference-server/vitest';
import { describe, expect, it } from 'vitest';
import { testIdHeaderValue } from '../../src/adapters/test-id-value.js';
import { MAX_TEST_ID_LENGTH, testIdProblem } from '../../src/utils/test-id.js';

describe('a helper given an option of another runner', () => {
  it("fails when called, naming the Playwright fixture's entry", () => {
    expect(() => useReferenceServer({ blockServiceWorkers: true, attachJournal: true } as object)).toThrow(
      '@parley/reference-server/vitest: blockServiceWorkers, attachJournal are options of the Playwright fixture, ' +
        'from @parley/reference-server/playwright, not of this vitest helper',
    );
  });
});

describe("a test's id in x-parley-test-id", () => {
  it('is sent as it is when it is printable ASCII (a tab inside too)', () => {
    expect(testIdHeaderValue('chat.spec.ts > answers\twith a tab')).toBe(
      'chat.spec.ts > answers\twith a tab',
    );
  });

  it('percent-encodes what a header cannot carry, so the server accepts it', () => {
    const value = testIdHeaderValue('météo > answers 🌦\nnext line');
    expect(value).toBe('m%C3%A9t%C3%A9o > answers %F0%9F%8C%A6%0Anext line');
    expect(testIdProblem(value)).toBeUndefined();
  });

  it("shortens a name past the server's limit to its start and a hash of the whole, distinct per name", () => {
    const a = testIdHeaderValue(`${'x'.repeat(600)}a`);
    const b = testIdHeaderValue(`${'x'.repeat(600)}b`);
    expect(a).toMatch(/^x+%#[0-9a-f]{40}$/);
    expect(a.length).toBeLessThanOrEqual(MAX_TEST_ID_LENGTH);
    expect(a).not.toBe(b);
    expect(testIdProblem(a)).toBeUndefined();
  });
});
