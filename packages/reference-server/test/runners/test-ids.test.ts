import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type TestAttempt, testIdHeaderValue } from '../../src/adapters/test-id-value.js';
import { MAX_TEST_ID_LENGTH, testIdProblem, testIdWithoutAttempt } from '../../src/utils/test-id.js';

const attempts = fc.record(
  { repeat: fc.nat(20), retry: fc.nat(5), run: fc.integer({ min: 1, max: 5 }) },
  { requiredKeys: [] },
);
// Names from the whole of Unicode (lone surrogates too), the characters the encoding uses, and long ones.
const names = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('%', 'C', '3', 'A', '9', 'u', '#', ' ', '\t', 'é', '=', 'r'),
    maxLength: 30,
  }),
  fc.string({ unit: 'grapheme-ascii', minLength: 500, maxLength: 700 }),
);
const key = (name: string, { repeat = 0, retry = 0, run = 1 }: TestAttempt) =>
  JSON.stringify([name, repeat, retry, run]);

describe("a test's id in x-parley-test-id is one to one", () => {
  it('"menu > café" and "menu > caf%C3%A9" get two ids', () => {
    expect(testIdHeaderValue('menu > café')).toBe('menu > caf%C3%A9');
    expect(testIdHeaderValue('menu > caf%C3%A9')).toBe('menu > caf%25C3%25A9');
  });

  it('two names, or two runs of one name (repeat, retry, run), never share an id (property)', () => {
    fc.assert(
      fc.property(names, attempts, names, attempts, (a, runA, b, runB) => {
        fc.pre(key(a, runA) !== key(b, runB));
        expect(testIdHeaderValue(a, runA)).not.toBe(testIdHeaderValue(b, runB));
      }),
      { numRuns: 600 },
    );
  });

  it('every id is one the server accepts and a header carries unchanged (property)', () => {
    fc.assert(
      fc.property(names, attempts, (name, attempt) => {
        const value = testIdHeaderValue(name, attempt);
        expect(value.length).toBeLessThanOrEqual(MAX_TEST_ID_LENGTH);
        expect(testIdProblem(value)).toBeUndefined();
        expect(new Headers({ 'x-parley-test-id': value }).get('x-parley-test-id')).toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it("a test's runs share its cassette key: the id without the run (property)", () => {
    fc.assert(
      fc.property(names, attempts, (name, attempt) => {
        expect(testIdWithoutAttempt(testIdHeaderValue(name, attempt))).toBe(testIdHeaderValue(name));
      }),
      { numRuns: 300 },
    );
  });

  it('marks a repeat, a retry and a run again readably', () => {
    expect(testIdHeaderValue('chat.spec.ts > answers', { repeat: 2, retry: 1 })).toBe(
      'chat.spec.ts > answers %repeat=2 %retry=1',
    );
    expect(testIdHeaderValue('a', { run: 2 })).toBe('a %run=2');
    expect(testIdHeaderValue(' padded\t')).toBe('%20padded%09');
  });
});
