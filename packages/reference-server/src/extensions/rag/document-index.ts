import type { Document } from './document.js';
import {
  DEFAULT_INDEX_LANGUAGE,
  type IndexLanguage,
  isIndexLanguage,
  unknownLanguageMessage,
} from './index-language.js';
import { createIndexTokenizer } from './index-tokenizer.js';
import { loadLanguageResources } from './language-resources.js';
import { type TagFilter, tagFilterWhere, tagPairs } from './tag-filter.js';

/** One retrieved document, as the caller and the model see it. */
export interface DocumentHit {
  id: string;
  /** The index the document came from. */
  index: string;
  title?: string;
  /** BM25 relevance, rounded to 4 decimals; higher is better. Comparable within one query. */
  score: number;
  tags: Record<string, string[]>;
  text: string;
}

export interface IndexSearchOptions {
  /** At most this many hits. */
  limit: number;
  tagFilter?: TagFilter;
}

/** Options of a {@link DocumentIndex}. */
export interface IndexOptions {
  /** The language of the documents and queries: word splitting, stop words, stemmer. Default `english`. */
  language?: IndexLanguage;
  /** Languages whose stop words are left out; default: `language`'s. For indexes mixing languages. */
  stopWordLanguages?: readonly IndexLanguage[];
}

const SCHEMA = { title: 'string', text: 'string', tagPairs: 'enum[]' } as const;

// Orama is imported with the first index built, so a browser page loads it only when it needs it.
const loadOrama = () => import('@orama/orama');

async function createDb(language: IndexLanguage, options: IndexOptions, documents: readonly Document[]) {
  const [{ create, insert }, resources] = await Promise.all([
    loadOrama(),
    loadLanguageResources(language, options.stopWordLanguages),
  ]);
  const db = create({ schema: SCHEMA, components: { tokenizer: createIndexTokenizer(resources) } });
  for (const document of documents) {
    // Synchronous with Orama's default index components.
    void insert(db, {
      id: document.id,
      title: document.title ?? '',
      text: document.text,
      tagPairs: tagPairs(document.tags),
    });
  }
  return db;
}

/**
 * An in-memory full-text index (Orama, BM25 over `title` and `text`) whose documents carry tags.
 * Tags are stored as `enum[]` values so tag filters run inside the search, before ranking and limits.
 * Orama and the language's stemmer and stop words load, and the documents are indexed, on the first
 * {@link search} or {@link ready} (dynamic imports: a server whose sessions never search loads none of
 * it, and a browser bundle fetches only the languages its indexes use).
 */
export class DocumentIndex {
  readonly name: string;
  readonly language: IndexLanguage;
  readonly #options: IndexOptions;
  #db: ReturnType<typeof createDb> | undefined;
  readonly #documents = new Map<string, Document>();

  /** Throws for a duplicate document id or an unknown language (the message lists the supported ones). */
  constructor(name: string, documents: readonly Document[], options: IndexOptions = {}) {
    this.name = name;
    const language = options.language ?? DEFAULT_INDEX_LANGUAGE;
    for (const candidate of [language, ...(options.stopWordLanguages ?? [])]) {
      if (!isIndexLanguage(candidate))
        throw new Error(`Index "${name}": ${unknownLanguageMessage(candidate)}`);
    }
    this.language = language;
    for (const document of documents) {
      if (this.#documents.has(document.id)) {
        throw new Error(`Index "${name}": duplicate document id "${document.id}"`);
      }
      this.#documents.set(document.id, document);
    }
    this.#options = options;
  }

  /** Builds the index once; a failure surfaces in every ready() and search(). */
  #built(): ReturnType<typeof createDb> {
    this.#db ??= createDb(this.language, this.#options, [...this.#documents.values()]);
    return this.#db;
  }

  /** Builds the index if no search did yet: resolves once the language resources are loaded and the documents indexed. */
  async ready(): Promise<void> {
    await this.#built();
  }

  get size(): number {
    return this.#documents.size;
  }

  get documents(): readonly Document[] {
    return [...this.#documents.values()];
  }

  /**
   * Documents that match at least one term of `query` (terms match as prefixes: "refund" finds
   * "refunds"), pass the tag filter, best first. A query with no searchable term finds nothing.
   */
  async search(query: string, options: IndexSearchOptions): Promise<DocumentHit[]> {
    const where = tagFilterWhere(options.tagFilter);
    if (where === 'nothing' || query.trim() === '') return [];
    const [{ search }, db] = await Promise.all([loadOrama(), this.#built()]);
    const results = await search(db, {
      term: query,
      properties: ['title', 'text'],
      threshold: 1,
      limit: options.limit,
      ...(where === undefined ? {} : { where }),
    });
    const hits: DocumentHit[] = [];
    for (const hit of results.hits) {
      const document = this.#documents.get(hit.id);
      // A query made only of stop words matches every document with score 0: not a match.
      if (document === undefined || !(hit.score > 0)) continue;
      hits.push({
        id: document.id,
        index: this.name,
        ...(document.title === undefined ? {} : { title: document.title }),
        score: Math.round(hit.score * 10_000) / 10_000,
        tags: document.tags,
        text: document.text,
      });
    }
    return hits;
  }
}
