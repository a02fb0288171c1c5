import { standInModel, turnToEvents } from '@parley/reference-server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collect, fakeRequest, joinedText, run, toolUses } from './helpers.js';

const anyText = fc.string({ unit: 'grapheme', maxLength: 200 });
const singleLine = fc.string({ unit: 'grapheme', maxLength: 120 }).filter((text) => !/[\r\n]/.test(text));
const jsonObject = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });

describe('stream properties', () => {
  it('for any text, the joined text deltas equal the scripted text', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        const events = await collect(turnToEvents({ text }, fakeRequest('x')));
        expect(joinedText(events)).toBe(text);
      }),
    );
  });

  it('for any single-line text, "/say TEXT" streams exactly TEXT', async () => {
    await fc.assert(
      fc.asyncProperty(singleLine, async (text) => {
        expect(joinedText(await run(standInModel, fakeRequest(`/say ${text}`)))).toBe(text);
      }),
    );
  });

  it('a line ends at \\n only: "/say" keeps U+2028 and U+2029 as characters of its text', async () => {
    for (const text of ['\u2028', 'a\u2029b', ' \u2028 ']) {
      expect(joinedText(await run(standInModel, fakeRequest(`/say ${text}`)))).toBe(text);
    }
  });

  it('for any JSON object, "/tool NAME {json}" input fragments join and parse back to it', async () => {
    await fc.assert(
      fc.asyncProperty(jsonObject, async (input) => {
        const json = JSON.stringify(input);
        const [use] = toolUses(await run(standInModel, fakeRequest(`/tool t ${json}`)));
        expect(use?.fragments.length).toBeGreaterThanOrEqual(2);
        expect(use?.fragments.join('')).toBe(json);
        expect(use?.input).toEqual(JSON.parse(json));
      }),
    );
  });

  it('for any text and maxTokens, the answer is the first maxTokens words of the text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 30 }),
        fc.nat(20),
        async (words, max) => {
          const events = await collect(
            turnToEvents({ text: words.join(' ') }, fakeRequest('x', { maxTokens: max })),
          );
          expect(joinedText(events)).toBe(words.slice(0, max).join(' '));
        },
      ),
    );
  });
});
