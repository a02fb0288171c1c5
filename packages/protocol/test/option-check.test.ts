import { checkOptions, describeValue, editDistance, nearestKey } from '@parley/protocol/option-check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('the options check', () => {
  it('a value is quoted with its type, so "5000" and 5000 read differently', () => {
    expect(describeValue('5000')).toBe('"5000" (a string)');
    expect(describeValue(5000)).toBe('5000 (a number)');
    expect(describeValue(true)).toBe('true (a boolean)');
    expect(describeValue(5n)).toBe('5n (a bigint)');
    expect(describeValue({ sessionId: 's' })).toBe('an object');
    expect(describeValue([1])).toBe('an array');
    expect(describeValue(() => 1)).toBe('a function');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue('x'.repeat(100))).toBe(`"${'x'.repeat(60)}..." (a string)`);
  });

  it('the edit distance is a distance: zero only to itself, symmetric, at most the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });

  it('the nearest key is one of the known keys, and a known key is its own nearest', () => {
    const known = ['timeoutMs', 'maxRetries', 'baseUrl'];
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (key) => {
        expect(known).toContain(nearestKey(key, known));
      }),
    );
    for (const key of known) expect(nearestKey(key, known)).toBe(key);
    expect(nearestKey('TIMEOUT', known)).toBe('timeoutMs');
  });

  it('a key another name is known to be meant for is named by that name', () => {
    expect(() =>
      checkOptions({ path: 'x' }, { file: true, per: true }, 'cassette', { path: 'file' }),
    ).toThrow('Unknown option "path" for cassette; did you mean "file"?');
  });

  it('options that are not an object are named with what they are', () => {
    expect(() => checkOptions('fast', { mode: true }, 'new Thing()')).toThrow(
      new TypeError('new Thing(): the options must be an object, got "fast" (a string)'),
    );
    expect(() => checkOptions(null, { mode: true }, 'new Thing()')).toThrow('got null');
    expect(() => checkOptions(undefined, { mode: true }, 'new Thing()')).not.toThrow();
  });
});
