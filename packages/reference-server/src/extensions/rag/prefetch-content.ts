import type { ContentBlock } from '@parley/protocol';
import type { DocumentHit } from './document-index.js';

/** The key of the machine-readable block of a prefetch system message. */
export const PREFETCH_JSON_KEY = 'retrievedDocuments';

/**
 * The content of the `system` message a retrieval prefetch injects: a text block for the model that
 * lists every document (id, index, score, tags, title, text), then a text block holding JSON,
 * `{"retrievedDocuments":{"query":...,"documents":[{id,index,title?,score,tags}]}}`, for programs.
 * Both are `text` blocks because message content has no JSON block type.
 */
export function prefetchContent(query: string, hits: readonly DocumentHit[]): ContentBlock[] {
  const listed = hits.map((hit, i) => {
    const tags = Object.entries(hit.tags)
      .map(([name, values]) => `${name}=${values.join('|')}`)
      .join(', ');
    const heading = `[${i + 1}] ${hit.index}/${hit.id} (score ${hit.score}${tags === '' ? '' : `; ${tags}`})`;
    return `${heading}\n${hit.title === undefined ? '' : `${hit.title}\n`}${hit.text}`;
  });
  const text = `Documents retrieved for the first user message (${hits.length}):\n\n${listed.join('\n\n')}`;
  const documents = hits.map(({ id, index, title, score, tags }) => ({
    id,
    index,
    ...(title === undefined ? {} : { title }),
    score,
    tags,
  }));
  return [
    { type: 'text', text },
    { type: 'text', text: JSON.stringify({ [PREFETCH_JSON_KEY]: { query, documents } }) },
  ];
}
