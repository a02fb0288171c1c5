/** How text of one language is cut into words. */
export interface WordSplitting {
  /** BCP 47 tag: lowercasing rules and the word dictionary of the segmenter. */
  locale: string;
  /** Split words at apostrophes (`l'hôtel` -> `l`, `hôtel`). */
  elision?: boolean;
}

const segmenters = new Map<string, Intl.Segmenter>();

// Scripts written without spaces between words; without a segmenter each character is a word.
const NO_SPACE_SCRIPTS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
const LETTER_RUN = /[\p{L}\p{M}\p{N}_']+/gu;
const CHARACTER_OR_RUN = new RegExp(`[${NO_SPACE_SCRIPTS}]|[^${NO_SPACE_SCRIPTS}]+`, 'gu');

/**
 * The words of `text`, lowercased, in order (duplicates kept). Words are found with the runtime's
 * Unicode word segmentation (`Intl.Segmenter`, which splits Japanese, Chinese or Thai text by
 * dictionary); where the runtime has none, words are runs of letters and digits, and characters of
 * scripts written without spaces count one by one.
 */
export function splitWords(text: string, splitting: WordSplitting): string[] {
  const lower = text.replace(/[\u2019\u02bc]/g, "'").toLocaleLowerCase(splitting.locale);
  const words = typeof Intl.Segmenter === 'function' ? segment(lower, splitting.locale) : fallback(lower);
  const result: string[] = [];
  for (const word of words) {
    const parts = splitting.elision === true ? word.split("'") : [word];
    for (const part of parts) {
      const trimmed = part.replace(/^'+|'+$/g, '');
      if (trimmed !== '') result.push(trimmed);
    }
  }
  return result;
}

function* segment(text: string, locale: string): Generator<string> {
  let segmenter = segmenters.get(locale);
  if (segmenter === undefined) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  for (const piece of segmenter.segment(text)) {
    if (piece.isWordLike === true) yield piece.segment;
  }
}

function* fallback(text: string): Generator<string> {
  for (const run of text.match(LETTER_RUN) ?? []) yield* run.match(CHARACTER_OR_RUN) ?? [];
}
