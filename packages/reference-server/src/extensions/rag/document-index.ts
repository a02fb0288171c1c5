import { create, insert, search } from '@orama/orama';
import type { Document } from './document.js';
import { STOP_WORDS } from './stop-words.js';
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

const SCHEMA = { title: 'string', text: 'string', tagPairs: 'enum[]' } as const;

function createDb() {
  return create({ schema: SCHEMA, components: { tokenizer: { stopWords: [...STOP_WORDS] } } });
}

/**
 * An in-memory full-text index (Orama, BM25 over `title` and `text`) whose documents carry tags.
 * Tags are stored as `enum[]` values so tag filters run inside the search, before ranking and limits.
 */
export class DocumentIndex {
  readonly name: string;
  readonly #db: ReturnType<typeof createDb>;
  readonly #documents = new Map<string, Document>();

  constructor(name: string, documents: readonly Document[]) {
    this.name = name;
    this.#db = createDb();
    for (const document of documents) {
      if (this.#documents.has(document.id)) {
        throw new Error(`Index "${name}": duplicate document id "${document.id}"`);
      }
      this.#documents.set(document.id, document);
      // Synchronous with Orama's default components, so the index is searchable once constructed.
      void insert(this.#db, {
        id: document.id,
        title: document.title ?? '',
        text: document.text,
        tagPairs: tagPairs(document.tags),
      });
    }
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
    const results = await search(this.#db, {
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
