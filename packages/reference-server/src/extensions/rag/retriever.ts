import { RAG_MAX_RESULTS_DEFAULT, type RagConfig } from '@parley/protocol';
import type { Document } from './document.js';
import { type DocumentHit, DocumentIndex, type IndexOptions } from './document-index.js';

/** An index's documents with its options, e.g. `{ documents, language: 'german' }`. */
export interface IndexDefinition extends IndexOptions {
  documents: readonly Document[];
}

/**
 * The registered document indexes of a server, searched with a session's `rag` configuration.
 *
 * @example
 * const retriever = new Retriever({
 *   handbook: HANDBOOK_DOCUMENTS,
 *   faq: { documents: [{ id: 'f1', text: 'Wir liefern weltweit.', tags: {} }], language: 'german' },
 * });
 * const hits = await retriever.search('refund policy', { indexes: ['handbook'], maxResults: 3 });
 */
export class Retriever {
  readonly #indexes = new Map<string, DocumentIndex>();

  /** Indexes by name: documents (an English index) or documents with options. */
  constructor(indexes: Readonly<Record<string, readonly Document[] | IndexDefinition>> = {}) {
    for (const [name, source] of Object.entries(indexes)) {
      if (isDocumentList(source)) this.add(name, source);
      else this.add(name, source.documents, source);
    }
  }

  /** Registers (or replaces) an index; throws for an unknown language or a duplicate document id. */
  add(name: string, documents: readonly Document[], options: IndexOptions = {}): DocumentIndex {
    const index = new DocumentIndex(name, documents, options);
    this.#indexes.set(name, index);
    return index;
  }

  has(name: string): boolean {
    return this.#indexes.has(name);
  }

  /** Registered index names, in registration order. */
  get names(): string[] {
    return [...this.#indexes.keys()];
  }

  /** Resolves once every registered index is built (language resources loaded, documents indexed). */
  async ready(): Promise<void> {
    await Promise.all([...this.#indexes.values()].map((index) => index.ready()));
  }

  get(name: string): DocumentIndex | undefined {
    return this.#indexes.get(name);
  }

  /** The names in `rag.indexes` that are not registered. */
  unknownIndexes(rag: RagConfig): string[] {
    return (rag.indexes ?? []).filter((name) => !this.#indexes.has(name));
  }

  /**
   * Searches the indexes `rag.indexes` names (all registered indexes when omitted; none when it is an
   * empty list), applies `rag.tagFilter`, and returns at most `rag.maxResults` (default 5) hits for
   * the whole query, best score first; ties keep index order, then document id order. Unknown index
   * names are skipped here: sessions naming them are rejected at creation.
   */
  async search(query: string, rag: RagConfig = {}): Promise<DocumentHit[]> {
    const limit = rag.maxResults ?? RAG_MAX_RESULTS_DEFAULT;
    const selected = (rag.indexes ?? this.names).flatMap((name) => this.#indexes.get(name) ?? []);
    const unique = [...new Set(selected)];
    const perIndex = await Promise.all(
      unique.map((index) =>
        index.search(query, { limit, ...(rag.tagFilter === undefined ? {} : { tagFilter: rag.tagFilter }) }),
      ),
    );
    const order = new Map(unique.map((index, i) => [index.name, i]));
    return perIndex
      .flat()
      .sort(
        (a, b) =>
          b.score - a.score ||
          (order.get(a.index) ?? 0) - (order.get(b.index) ?? 0) ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
      .slice(0, limit);
  }
}

function isDocumentList(source: readonly Document[] | IndexDefinition): source is readonly Document[] {
  return Array.isArray(source);
}
