import { type IndexLanguage, languageSpec, type Stemmer } from './index-language.js';
import { loadStopWords } from './stop-words.js';

/** What an index needs to turn text of one language into search terms. */
export interface LanguageResources {
  language: IndexLanguage;
  locale: string;
  elision: boolean;
  stemmer: Stemmer | undefined;
  stopWords: ReadonlySet<string>;
}

const stemmers = new Map<IndexLanguage, Promise<Stemmer | undefined>>();

/**
 * Loads the stemmer of `language` and the stop words of `stopWordLanguages` (default: the language
 * itself). Stemmers are loaded once per language and shared by every index.
 */
export async function loadLanguageResources(
  language: IndexLanguage,
  stopWordLanguages: readonly IndexLanguage[] = [language],
): Promise<LanguageResources> {
  const spec = languageSpec(language);
  let stemmer = stemmers.get(language);
  if (stemmer === undefined) {
    stemmer = spec.stemmer === undefined ? Promise.resolve(undefined) : spec.stemmer().then((m) => m.stemmer);
    stemmers.set(language, stemmer);
    // A failed load is retried by the next index rather than remembered.
    stemmer.catch(() => stemmers.delete(language));
  }
  const [stem, stopWords] = await Promise.all([stemmer, loadStopWords(stopWordLanguages)]);
  return { language, locale: spec.locale, elision: spec.elision === true, stemmer: stem, stopWords };
}
