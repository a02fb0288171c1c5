import { partialJsonParser } from '@parley/sdk/partial-input';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/**
 * True when `partial` could grow into `full`: the same kind, objects with a subset of the keys,
 * arrays no longer, strings a prefix, anything else equal.
 */
function grows(partial: unknown, full: unknown): boolean {
  if (typeof full === 'string') return typeof partial === 'string' && full.startsWith(partial);
  if (Array.isArray(full)) {
    return (
      Array.isArray(partial) &&
      partial.length <= full.length &&
      partial.every((item, i) =>
        // Every element but the last is complete.
        i < partial.length - 1
          ? Object.is(JSON.stringify(item), JSON.stringify(full[i]))
          : grows(item, full[i]),
      )
    );
  }
  if (typeof full === 'object' && full !== null) {
    if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) return false;
    return Object.entries(partial).every(
      ([key, value]) => Object.hasOwn(full, key) && grows(value, (full as Record<string, unknown>)[key]),
    );
  }
  return Object.is(partial, full);
}

/** Feeds `text` cut at `cuts` and returns the snapshot after each fragment. */
function snapshots(text: string, cuts: number[]): unknown[] {
  const parse = partialJsonParser();
  const points = [0, ...cuts, text.length];
  const out: unknown[] = [];
  for (let i = 1; i < points.length; i++) out.push(parse(text.slice(points[i - 1], points[i]))());
  return out;
}

// Objects with any JSON inside (strings with any code unit, nested arrays and objects, numbers).
const jsonObject = fc.dictionary(fc.string({ unit: 'grapheme-composite' }), fc.jsonValue(), { maxKeys: 6 });

describe('partial JSON parser (@streamparser/json, fed fragment by fragment)', () => {
  it('split at every point in two, the last snapshot equals the parsed input and the first grows into it', () => {
    fc.assert(
      fc.property(jsonObject, (input) => {
        const text = JSON.stringify(input);
        const parsed = JSON.parse(text);
        for (let cut = 0; cut <= text.length; cut++) {
          const [first, last] = snapshots(text, [cut]);
          expect(last).toEqual(parsed);
          expect(grows(first, parsed)).toBe(true);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('fed one code unit at a time, each snapshot grows into the next and into the parsed input', () => {
    fc.assert(
      fc.property(jsonObject, (input) => {
        const text = JSON.stringify(input);
        const parsed = JSON.parse(text);
        const all = snapshots(
          text,
          Array.from({ length: text.length - 1 }, (_, i) => i + 1),
        );
        expect(all.at(-1)).toEqual(parsed);
        for (let i = 0; i < all.length; i++) {
          expect(grows(all[i], parsed)).toBe(true);
          if (i > 0) expect(grows(all[i - 1], all[i])).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('fragments cut anywhere, with whitespace and escapes, end at the parsed input', () => {
    fc.assert(
      fc.property(jsonObject, fc.array(fc.nat(), { maxLength: 12 }), (input, rawCuts) => {
        const text = JSON.stringify(input, null, 2);
        const cuts = [...new Set(rawCuts.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
        const all = snapshots(text, cuts);
        expect(all.at(-1)).toEqual(JSON.parse(text));
        for (let i = 1; i < all.length; i++) expect(grows(all[i - 1], all[i])).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('shows a string as it arrives, and a number only once it is complete', () => {
    const parse = partialJsonParser();
    expect(parse('{"query":"par')()).toEqual({ query: 'par' });
    expect(parse('is","limit":1')()).toEqual({ query: 'paris' });
    expect(parse('2,"tags":["a')()).toEqual({ query: 'paris', limit: 12, tags: ['a'] });
    expect(parse('"]}')()).toEqual({ query: 'paris', limit: 12, tags: ['a'] });
  });

  it('gives a new object each time, so a kept snapshot does not change', () => {
    const parse = partialJsonParser();
    const first = parse('{"a":[1,')();
    const second = parse('2]}')();
    expect(first).toEqual({ a: [1] });
    expect(second).toEqual({ a: [1, 2] });
  });

  it('a snapshot first read after later fragments is the input as it stood at its own fragment', () => {
    const parse = partialJsonParser();
    const marks = ['{"a":[1,', '2],"b":{"c":"x', 'yz","d":[{"e"', ':true}]', '}'].map(parse);
    expect(marks.map((snapshot) => snapshot())).toEqual([
      { a: [1] },
      { a: [1, 2], b: { c: 'x' } },
      { a: [1, 2], b: { c: 'xyz', d: [{}] } },
      { a: [1, 2], b: { c: 'xyz', d: [{ e: true }] } },
      { a: [1, 2], b: { c: 'xyz', d: [{ e: true }] } },
    ]);
    // Read twice, the same object.
    expect(marks[1]?.()).toBe(marks[1]?.());
  });

  it('keeps the last good snapshot once the JSON turns invalid', () => {
    const parse = partialJsonParser();
    expect(parse('{"a":"x",')()).toEqual({ a: 'x' });
    expect(parse('}')()).toEqual({ a: 'x' });
    expect(parse('"b":1}')()).toEqual({ a: 'x' });
  });

  it('a key that comes twice shows its later value, as JSON.parse does', () => {
    const parse = partialJsonParser();
    parse('{"a":1,"b":2,');
    expect(parse('"a":3}')()).toEqual(JSON.parse('{"a":1,"b":2,"a":3}'));
  });
});

/**
 * The containers of `next` that are not in `previous` at the same place (a container shared by
 * both is not walked into): what a snapshot had to build anew.
 */
function newContainers(previous: unknown, next: unknown): number {
  if (typeof next !== 'object' || next === null || next === previous) return 0;
  const before = (typeof previous === 'object' && previous !== null ? previous : {}) as Record<
    string,
    unknown
  >;
  let count = 1;
  for (const [key, value] of Object.entries(next)) count += newContainers(before[key], value);
  return count;
}

/** A tool input of `items` small objects in an array, fed in 4-character fragments (the reference server's). */
function itemFragments(items: number): string[] {
  const text = JSON.stringify({
    items: Array.from({ length: items }, (_, i) => ({ id: i, name: `item ${i}`, done: i % 2 === 0 })),
  });
  const fragments: string[] = [];
  for (let at = 0; at < text.length; at += 4) fragments.push(text.slice(at, at + 4));
  return fragments;
}

describe('partial JSON parser in linear time', () => {
  it('a snapshot builds anew only the containers still open: at most 4 per fragment, at 1k items as at 10k', () => {
    // Every fragment is parsed; the last 200 snapshots are built and compared with the one before.
    const most = (items: number) => {
      const parse = partialJsonParser();
      const snapshots = itemFragments(items).map(parse).slice(-200);
      let max = 0;
      for (let i = 1; i < snapshots.length; i++) {
        max = Math.max(max, newContainers(snapshots[i - 1]?.(), snapshots[i]?.()));
      }
      return max;
    };
    const small = most(1_000);
    // The root, the items array, the item being read, and an item that just closed.
    expect(small).toBeLessThanOrEqual(4);
    expect(most(10_000)).toBe(small);
  });
});
