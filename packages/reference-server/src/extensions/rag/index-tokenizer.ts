import type { Tokenizer } from '@orama/orama';
import { foldAccents } from './fold-accents.js';
import type { LanguageResources } from './language-resources.js';
import { splitWords } from './split-words.js';

/**
 * The Orama tokenizer of an index, used for documents and queries alike: Unicode words
 * ({@link splitWords}), lowercased; stop words dropped; the rest stemmed and stripped of Latin
 * accents; each term once. Orama's own tokenizer splits at letters outside a per-language ASCII-based
 * set (English splits `Rückerstattung` into `r` and `ckerstattung`), and the Japanese and Mandarin
 * tokenizers of `@orama/tokenizers` neither lowercase nor drop stop words: hence this one.
 */
export function createIndexTokenizer(resources: LanguageResources): Tokenizer {
  const { stemmer, stopWords } = resources;
  return {
    language: resources.language,
    // Orama's interface asks for a cache; terms are cheap to recompute and queries would grow it forever.
    normalizationCache: new Map(),
    tokenize(raw: string): string[] {
      const terms = new Set<string>();
      for (const word of splitWords(raw, resources)) {
        if (stopWords.has(word)) continue;
        const term = foldAccents(stemmer === undefined ? word : stemmer(word));
        if (term !== '') terms.add(term);
      }
      return [...terms];
    },
  };
}
