import type { RagConfig } from '@parley/protocol';
import * as z from 'zod';
import type { ServerTool, ServerToolResult } from '../../conversation/server-tool.js';
import { SEARCH_DOCUMENTS_TOOL } from '../../model/tool-names.js';
import { formatIssues } from '../format-issues.js';
import type { Retriever } from './retriever.js';

export { SEARCH_DOCUMENTS_TOOL };

const InputSchema = z.strictObject({ query: z.string().trim().min(1, 'must not be empty').max(2000) });

/**
 * The `search_documents` server tool of a session: full-text search over the session's indexes with
 * its tag filter and `maxResults`. The result is one JSON part,
 * `{ query, results: [{ id, index, title?, score, tags, text }] }`, best first.
 */
export function createSearchDocumentsTool(retriever: Retriever, rag: RagConfig): ServerTool {
  const indexes = rag.indexes ?? retriever.names;
  return {
    name: SEARCH_DOCUMENTS_TOOL,
    description:
      `Full-text search over the document indexes ${indexes.map((n) => `"${n}"`).join(', ') || '(none)'}. ` +
      'Returns the best matching documents with their id, index, title, score, tags and text.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1, description: 'Words to search for.' } },
      required: ['query'],
      additionalProperties: false,
    },
    async call(input): Promise<ServerToolResult> {
      const parsed = InputSchema.safeParse(input);
      if (!parsed.success) {
        return {
          isError: true,
          content: [{ type: 'text', text: `Invalid input: ${formatIssues(parsed.error)}` }],
        };
      }
      const results = await retriever.search(parsed.data.query, rag);
      return { isError: false, content: [{ type: 'json', json: { query: parsed.data.query, results } }] };
    },
  };
}
