import { type IndexLanguage, languageSpec } from './index-language.js';

// Orama's English list lacks the article "a", which as a prefix would match every word starting with it.
const EXTRA_STOP_WORDS: Partial<Record<IndexLanguage, readonly string[]>> = { english: ['a'] };

/**
 * The stop words of `languages` (from `@orama/stopwords`, loaded on first use): words left out of the
 * index and of queries, so "What is the refund policy?" ranks by "refund" and "policy".
 */
export async function loadStopWords(languages: readonly IndexLanguage[]): Promise<Set<string>> {
  const lists = await Promise.all(languages.map((language) => languageSpec(language).stopWords()));
  const words = new Set<string>();
  languages.forEach((language, i) => {
    for (const word of [...(lists[i]?.stopwords ?? []), ...(EXTRA_STOP_WORDS[language] ?? [])]) {
      // The lists use the typewriter apostrophe; text is normalised to it before lookup.
      if (word !== '') words.add(word.toLowerCase());
    }
  });
  return words;
}
