/** A word stemmer: maps a lowercased word to its stem (`refunded` -> `refund`). */
export type Stemmer = (word: string) => string;

interface LanguageSpec {
  /** BCP 47 tag for word segmentation and lowercasing. */
  locale: string;
  /** Loads the Snowball stemmer; none for languages without word inflection to strip. */
  stemmer?: () => Promise<{ stemmer: Stemmer }>;
  stopWords: () => Promise<{ stopwords: string[] }>;
  /** Articles and pronouns elide with an apostrophe (`l'hôtel`): split there. */
  elision?: true;
}

// Each loader is a literal dynamic import, so a bundler puts every language in a chunk of its own
// and an application downloads only the languages its indexes use.
/** Every supported index language, alphabetically. */
export const INDEX_LANGUAGES = [
  'arabic',
  'armenian',
  'bulgarian',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hungarian',
  'indian',
  'indonesian',
  'irish',
  'italian',
  'japanese',
  'lithuanian',
  'mandarin',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'sanskrit',
  'serbian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
  'ukrainian',
] as const;

/** A language an index can be built for: it picks word segmentation, stop words and stemmer. */
export type IndexLanguage = (typeof INDEX_LANGUAGES)[number];

const LANGUAGES: Record<IndexLanguage, LanguageSpec> = {
  arabic: {
    locale: 'ar',
    stemmer: () => import('@orama/stemmers/arabic'),
    stopWords: () => import('@orama/stopwords/arabic'),
  },
  armenian: {
    locale: 'hy',
    stemmer: () => import('@orama/stemmers/armenian'),
    stopWords: () => import('@orama/stopwords/armenian'),
  },
  bulgarian: {
    locale: 'bg',
    stemmer: () => import('@orama/stemmers/bulgarian'),
    stopWords: () => import('@orama/stopwords/bulgarian'),
  },
  danish: {
    locale: 'da',
    stemmer: () => import('@orama/stemmers/danish'),
    stopWords: () => import('@orama/stopwords/danish'),
  },
  dutch: {
    locale: 'nl',
    stemmer: () => import('@orama/stemmers/dutch'),
    stopWords: () => import('@orama/stopwords/dutch'),
  },
  english: {
    locale: 'en',
    stemmer: () => import('@orama/stemmers/english'),
    stopWords: () => import('@orama/stopwords/english'),
  },
  finnish: {
    locale: 'fi',
    stemmer: () => import('@orama/stemmers/finnish'),
    stopWords: () => import('@orama/stopwords/finnish'),
  },
  french: {
    locale: 'fr',
    stemmer: () => import('@orama/stemmers/french'),
    stopWords: () => import('@orama/stopwords/french'),
    elision: true,
  },
  german: {
    locale: 'de',
    stemmer: () => import('@orama/stemmers/german'),
    stopWords: () => import('@orama/stopwords/german'),
  },
  greek: {
    locale: 'el',
    stemmer: () => import('@orama/stemmers/greek'),
    stopWords: () => import('@orama/stopwords/greek'),
  },
  hungarian: {
    locale: 'hu',
    stemmer: () => import('@orama/stemmers/hungarian'),
    stopWords: () => import('@orama/stopwords/hungarian'),
  },
  indian: {
    locale: 'hi',
    stemmer: () => import('@orama/stemmers/indian'),
    stopWords: () => import('@orama/stopwords/indian'),
  },
  indonesian: {
    locale: 'id',
    stemmer: () => import('@orama/stemmers/indonesian'),
    stopWords: () => import('@orama/stopwords/indonesian'),
  },
  irish: {
    locale: 'ga',
    stemmer: () => import('@orama/stemmers/irish'),
    stopWords: () => import('@orama/stopwords/irish'),
  },
  italian: {
    locale: 'it',
    stemmer: () => import('@orama/stemmers/italian'),
    stopWords: () => import('@orama/stopwords/italian'),
    elision: true,
  },
  japanese: { locale: 'ja', stopWords: () => import('@orama/stopwords/japanese') },
  lithuanian: {
    locale: 'lt',
    stemmer: () => import('@orama/stemmers/lithuanian'),
    stopWords: () => import('@orama/stopwords/lithuanian'),
  },
  mandarin: { locale: 'zh', stopWords: () => import('@orama/stopwords/mandarin') },
  nepali: {
    locale: 'ne',
    stemmer: () => import('@orama/stemmers/nepali'),
    stopWords: () => import('@orama/stopwords/nepali'),
  },
  norwegian: {
    locale: 'nb',
    stemmer: () => import('@orama/stemmers/norwegian'),
    stopWords: () => import('@orama/stopwords/norwegian'),
  },
  portuguese: {
    locale: 'pt',
    stemmer: () => import('@orama/stemmers/portuguese'),
    stopWords: () => import('@orama/stopwords/portuguese'),
  },
  romanian: {
    locale: 'ro',
    stemmer: () => import('@orama/stemmers/romanian'),
    stopWords: () => import('@orama/stopwords/romanian'),
  },
  russian: {
    locale: 'ru',
    stemmer: () => import('@orama/stemmers/russian'),
    stopWords: () => import('@orama/stopwords/russian'),
  },
  sanskrit: {
    locale: 'sa',
    stemmer: () => import('@orama/stemmers/sanskrit'),
    stopWords: () => import('@orama/stopwords/sanskrit'),
  },
  serbian: {
    locale: 'sr',
    stemmer: () => import('@orama/stemmers/serbian'),
    stopWords: () => import('@orama/stopwords/serbian'),
  },
  spanish: {
    locale: 'es',
    stemmer: () => import('@orama/stemmers/spanish'),
    stopWords: () => import('@orama/stopwords/spanish'),
  },
  swedish: {
    locale: 'sv',
    stemmer: () => import('@orama/stemmers/swedish'),
    stopWords: () => import('@orama/stopwords/swedish'),
  },
  tamil: {
    locale: 'ta',
    stemmer: () => import('@orama/stemmers/tamil'),
    stopWords: () => import('@orama/stopwords/tamil'),
  },
  turkish: {
    locale: 'tr',
    stemmer: () => import('@orama/stemmers/turkish'),
    stopWords: () => import('@orama/stopwords/turkish'),
  },
  ukrainian: {
    locale: 'uk',
    stemmer: () => import('@orama/stemmers/ukrainian'),
    stopWords: () => import('@orama/stopwords/ukrainian'),
  },
};

/** The language of an index that names none. */
export const DEFAULT_INDEX_LANGUAGE: IndexLanguage = 'english';

export function isIndexLanguage(value: unknown): value is IndexLanguage {
  return typeof value === 'string' && Object.hasOwn(LANGUAGES, value);
}

/** The error text for a language that is not supported; it lists the supported ones. */
export function unknownLanguageMessage(value: unknown): string {
  return `unknown language ${JSON.stringify(value)} (supported: ${INDEX_LANGUAGES.join(', ')})`;
}

export function languageSpec(language: IndexLanguage): LanguageSpec {
  return LANGUAGES[language];
}
