const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;

/**
 * `word` with the accents of Latin letters removed (`rückerstattung` -> `ruckerstattung`), so a query
 * typed without them still matches. Marks of other scripts stay: they tell Japanese kana or Devanagari
 * letters apart.
 */
export function foldAccents(word: string): string {
  return word.normalize('NFD').replace(LATIN_MARKS, '$1').normalize('NFC');
}
