// Self-contained on purpose (types only from the model folder), so that `model/directives.ts` may
// import these entries into its table without an import cycle.
import type { Directive, DirectiveContext } from '../model/directives.js';
import { ModelError } from '../model/model.js';
import { PROVIDER_TOOL_SEPARATOR } from './mcp/provider-config.js';
import { SEARCH_DOCUMENTS_TOOL } from './rag/search-documents-tool.js';

function bad(context: DirectiveContext, reason: string): ModelError {
  return new ModelError(`Bad directive on line ${context.lineNumber} ("${context.line}"): ${reason}`);
}

/**
 * Stand-in model directives for the extensions:
 *
 * - `/search QUERY` calls the retrieval tool: `search_documents {"query": QUERY}`.
 * - `/mcp PROVIDER.TOOL {json}` calls a gateway provider tool: `PROVIDER__TOOL {json}`.
 *
 * Pass them to `createStandInModel({ directives: EXTENSION_DIRECTIVES })`, or merge them into the
 * built-in table.
 */
export const EXTENSION_DIRECTIVES: Readonly<Record<string, Directive>> = {
  search: {
    syntax: '/search QUERY',
    apply(argument, plan, context) {
      const query = argument.trim();
      if (query === '') throw bad(context, 'expected /search QUERY');
      plan.toolUses.push({ name: SEARCH_DOCUMENTS_TOOL, input: { query } });
    },
  },
  mcp: {
    syntax: '/mcp PROVIDER.TOOL {json}',
    apply(argument, plan, context) {
      const trimmed = argument.trim();
      const space = trimmed.search(/\s/);
      const target = space === -1 ? trimmed : trimmed.slice(0, space);
      const json = space === -1 ? '' : trimmed.slice(space + 1).trim();
      const dot = target.indexOf('.');
      if (dot <= 0 || dot === target.length - 1)
        throw bad(
          context,
          'expected /mcp PROVIDER.TOOL {json}, e.g. /mcp erp.get_customer {"customerId":"C-1001"}',
        );
      const provider = target.slice(0, dot);
      const tool = target.slice(dot + 1).replace(/[^a-zA-Z0-9_-]/g, '_');
      let input: unknown = {};
      if (json !== '') {
        try {
          input = JSON.parse(json);
        } catch (error) {
          throw bad(context, `the input is not valid JSON (${(error as Error).message})`);
        }
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw bad(context, 'the input must be a JSON object, like {"customerId":"C-1001"}');
      }
      plan.toolUses.push({
        name: `${provider}${PROVIDER_TOOL_SEPARATOR}${tool}`,
        input: input as Record<string, unknown>,
      });
    },
  },
};
