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
  for (let i = 1; i < points.length; i++) out.push(parse(text.slice(points[i - 1], points[i])).snapshot());
  return out;
}

/** Feeds `text` cut at `cuts`; after each fragment, the live value as JSON and the live value itself. */
function liveReads(text: string, cuts: number[]): { json: string; value: unknown; snapshot: unknown }[] {
  const parse = partialJsonParser();
  const points = [0, ...cuts, text.length];
  const out: { json: string; value: unknown; snapshot: unknown }[] = [];
  for (let i = 1; i < points.length; i++) {
    const parsed = parse(text.slice(points[i - 1], points[i]));
    out.push({ json: JSON.stringify(parsed.live), value: parsed.live, snapshot: parsed.snapshot() });
  }
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
    expect(parse('{"query":"par').snapshot()).toEqual({ query: 'par' });
    expect(parse('is","limit":1').snapshot()).toEqual({ query: 'paris' });
    expect(parse('2,"tags":["a').snapshot()).toEqual({ query: 'paris', limit: 12, tags: ['a'] });
    expect(parse('"]}').snapshot()).toEqual({ query: 'paris', limit: 12, tags: ['a'] });
  });

  it('gives a new object each time, so a kept snapshot does not change', () => {
    const parse = partialJsonParser();
    const first = parse('{"a":[1,').snapshot();
    const second = parse('2]}').snapshot();
    expect(first).toEqual({ a: [1] });
    expect(second).toEqual({ a: [1, 2] });
  });

  it('a snapshot first read after later fragments is the input as it stood at its own fragment', () => {
    const parse = partialJsonParser();
    const marks = ['{"a":[1,', '2],"b":{"c":"x', 'yz","d":[{"e"', ':true}]', '}'].map(parse);
    expect(marks.map((mark) => mark.snapshot())).toEqual([
      { a: [1] },
      { a: [1, 2], b: { c: 'x' } },
      { a: [1, 2], b: { c: 'xyz', d: [{}] } },
      { a: [1, 2], b: { c: 'xyz', d: [{ e: true }] } },
      { a: [1, 2], b: { c: 'xyz', d: [{ e: true }] } },
    ]);
    // Read twice, the same object.
    expect(marks[1]?.snapshot()).toBe(marks[1]?.snapshot());
  });

  it('keeps the last good snapshot once the JSON turns invalid', () => {
    const parse = partialJsonParser();
    expect(parse('{"a":"x",').snapshot()).toEqual({ a: 'x' });
    expect(parse('}').snapshot()).toEqual({ a: 'x' });
    expect(parse('"b":1}').snapshot()).toEqual({ a: 'x' });
  });

  it("the live value read after each fragment equals that fragment's snapshot, and is one object from the first fragment to the last", () => {
    fc.assert(
      fc.property(jsonObject, fc.array(fc.nat(), { maxLength: 16 }), (input, rawCuts) => {
        const text = JSON.stringify(input, null, 1);
        const cuts = [...new Set(rawCuts.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
        const reads = liveReads(text, cuts);
        for (const read of reads) {
          expect(JSON.parse(read.json)).toEqual(read.snapshot);
          expect(read.value).toBe(reads[0]?.value);
        }
        expect(reads.at(-1)?.value).toEqual(JSON.parse(text));
      }),
      { numRuns: 100 },
    );
  });

  it('the live value grows in place; a snapshot taken on the way stays as it was', () => {
    const parse = partialJsonParser();
    const first = parse('{"query":"par');
    const kept = first.snapshot();
    const live = first.live;
    parse('is","tags":["a","b');
    expect(live).toEqual({ query: 'paris', tags: ['a', 'b'] });
    parse('c"],"limit":12}');
    expect(live).toEqual({ query: 'paris', tags: ['a', 'bc'], limit: 12 });
    expect(first.live).toBe(live);
    expect(kept).toEqual({ query: 'par' });
  });

  it('a "__proto__" member stays a member of the live value and of a snapshot', () => {
    const parse = partialJsonParser();
    const parsed = parse('{"__proto__":{"polluted":"ye');
    expect(Object.getPrototypeOf(parsed.live)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed.live as object, '__proto__')).toBe(true);
    expect(parsed.snapshot()).toEqual(JSON.parse('{"__proto__":{"polluted":"ye"}}'));
    expect(Object.hasOwn(parsed.snapshot() as object, '__proto__')).toBe(true);
  });

  it('the live value keeps the last good input once the JSON turns invalid', () => {
    const parse = partialJsonParser();
    const { live } = parse('{"a":"x",');
    parse('}');
    expect(parse('"b":1}').live).toBe(live);
    expect(live).toEqual({ a: 'x' });
  });

  it('a root that is not an object is the live value itself', () => {
    const parse = partialJsonParser();
    expect(parse('"ab').live).toBe('ab');
    expect(parse('c"').live).toBe('abc');
    const list = partialJsonParser();
    expect(list('[1,"x').live).toEqual([1, 'x']);
    expect(list('"]').snapshot()).toEqual([1, 'x']);
  });

  it('a key that comes twice shows its later value, as JSON.parse does', () => {
    const parse = partialJsonParser();
    parse('{"a":1,"b":2,');
    expect(parse('"a":3}').snapshot()).toEqual(JSON.parse('{"a":1,"b":2,"a":3}'));
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
  it('reading the live value on every fragment copies nothing: every read is the same root and the same items array', () => {
    const parse = partialJsonParser();
    const reads = itemFragments(1_000).map((fragment) => parse(fragment).live as { items?: unknown[] });
    const root = reads[0];
    const items = reads.at(-1)?.items;
    expect(items).toHaveLength(1_000);
    expect(reads.every((live) => live === root)).toBe(true);
    // `{"items":[` is 3 fragments: from the fourth on, the array is there, the same one.
    expect(reads.slice(3).every((live) => live.items === items)).toBe(true);
  });

  it('a snapshot builds anew only the containers still open: at most 4 per fragment, at 1k items as at 10k', () => {
    // Every fragment is parsed; the last 200 snapshots are built and compared with the one before.
    const most = (items: number) => {
      const parse = partialJsonParser();
      const snapshots = itemFragments(items).map(parse).slice(-200);
      let max = 0;
      for (let i = 1; i < snapshots.length; i++) {
        max = Math.max(max, newContainers(snapshots[i - 1]?.snapshot(), snapshots[i]?.snapshot()));
      }
      return max;
    };
    const small = most(1_000);
    // The root, the items array, the item being read, and an item that just closed.
    expect(small).toBeLessThanOrEqual(4);
    expect(most(10_000)).toBe(small);
  });
});
