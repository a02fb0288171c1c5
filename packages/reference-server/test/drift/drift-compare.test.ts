import { textSimilarity } from '@parley/reference-server/node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CassetteTurn } from '../../src/cassette/cassette-format.js';
import { compareTurn } from '../../src/drift/drift-compare.js';

// The text comparison of a drift: the whole texts are compared, the similarity sees order at any
// length, and an excerpt shows where they differ.

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const recorded = (text: string): CassetteTurn => ({
  input: { user: [{ type: 'text', text: 'hi' }] },
  content: [{ type: 'text', text }],
  stopReason: 'end_turn',
});
const live = (text: string) => ({ content: [{ type: 'text', text }], stopReason: 'end_turn' });
const textDrift = (was: string, now: string, textSimilarity = 1) =>
  compareTurn(recorded(was), live(now), { ignore: new Set(), textSimilarity }).differences.find(
    (d) => d.kind === 'text',
  );

describe('drift: any difference of the text is flagged at the default threshold (1)', () => {
  it('2,500 words with one word changed', () => {
    const was = words(2500);
    const now = [...was];
    now[1200] = 'changed';
    const drift = textDrift(was.join(' '), now.join(' '));
    expect(drift?.similarity).toBeLessThan(1);
    expect(drift?.live).toContain('changed');
  });

  it('the same 2,500 words reversed: flagged, and hardly alike (order counts at any length)', () => {
    const was = words(2500);
    const drift = textDrift(was.join(' '), [...was].reverse().join(' '));
    expect(drift?.similarity).toBeLessThan(0.01);
  });

  it('2,000 words against the same 2,001', () => {
    const was = words(2000).join(' ');
    const drift = textDrift(was, `${was} more`);
    expect(drift?.similarity).toBeGreaterThan(0.999);
    expect(drift?.similarity).toBeLessThan(1);
  });

  it('1,000 words with word 500 changed: the excerpts show the place, not the first 120 characters', () => {
    const was = words(1000);
    const now = [...was];
    now[500] = 'changed';
    const drift = textDrift(was.join(' '), now.join(' '));
    expect(drift?.recorded).toMatch(/^\.\.\."[^"]*w500[^"]*"\.\.\.$/);
    expect(drift?.live).toMatch(/^\.\.\."[^"]*changed[^"]*"\.\.\.$/);
  });

  it('a difference in whitespace alone is a difference (its similarity, counted on words, is 1)', () => {
    expect(textDrift('It is sunny.', 'It is  sunny.')).toMatchObject({ similarity: 1 });
    expect(textDrift('It is sunny.', 'It is  sunny.', 0.9)).toBeUndefined();
  });

  it('ignore: text leaves the text out', () => {
    const differences = compareTurn(recorded('a'), live('b'), {
      ignore: new Set(['text']),
      textSimilarity: 1,
    }).differences;
    expect(differences).toEqual([]);
  });
});

describe('drift text comparison, by property', () => {
  // Short texts of few distinct words and spaces, so that texts meet often.
  const text = fc
    .array(fc.constantFrom('a', 'b', 'c', 'é', '\u{1F600}', ' ', '\n'), { maxLength: 300 })
    .map((chars) => chars.join(''));
  const similarWords = (a: string, b: string) =>
    a.split(/\s+/).filter(Boolean).join(' ') === b.split(/\s+/).filter(Boolean).join(' ');

  it('at threshold 1 two texts drift exactly when they differ, and the excerpts shown differ too', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const drift = textDrift(a, b);
        if (a === b) return drift === undefined;
        return drift !== undefined && drift.recorded !== drift.live;
      }),
      { numRuns: 500 },
    );
  });

  it('similarity is in [0, 1], symmetric, and 1 exactly when the words are the same in order', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const s = textSimilarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(textSimilarity(b, a)).toBe(s);
        expect(s === 1).toBe(similarWords(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('below 1, a threshold flags exactly the texts less alike than it', () => {
    fc.assert(
      fc.property(text, text, fc.double({ min: 0, max: 0.999, noNaN: true }), (a, b, threshold) => {
        const drift = textDrift(a, b, threshold);
        return (drift !== undefined) === (a !== b && textSimilarity(a, b) < threshold);
      }),
      { numRuns: 300 },
    );
  });

  it('very long texts keep order: a text and its reversal are far apart, one changed word is close', () => {
    const was = words(12_000);
    const reversed = textSimilarity(was.join(' '), [...was].reverse().join(' '));
    expect(reversed).toBeLessThan(0.01);
    const swapped = [...was];
    [swapped[3], swapped[11_000]] = [swapped[11_000] as string, swapped[3] as string];
    const close = textSimilarity(was.join(' '), swapped.join(' '));
    expect(close).toBeGreaterThan(0.99);
    expect(close).toBeLessThan(1);
  });
});
