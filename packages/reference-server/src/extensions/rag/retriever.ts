import { RAG_MAX_RESULTS_DEFAULT, type RagConfig } from '@parley/protocol';
import type { Document } from './document.js';
import { type DocumentHit, DocumentIndex } from './document-index.js';

/**
 * The registered document indexes of a server, searched with a session's `rag` configuration.
 *
 * @example
 * const retriever = new Retriever({ handbook: HANDBOOK_DOCUMENTS });
 * const hits = await retriever.search('refund policy', { indexes: ['handbook'], maxResults: 3 });
 */
export class Retriever {
  readonly #indexes = new Map<string, DocumentIndex>();

  constructor(indexes: Readonly<Record<string, readonly Document[]>> = {}) {
    for (const [name, documents] of Object.entries(indexes)) this.add(name, documents);
  }

  /** Registers (or replaces) an index. */
  add(name: string, documents: readonly Document[]): DocumentIndex {
    const index = new DocumentIndex(name, documents);
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
