import type { ContentBlock, Customizations, RagConfig } from '@parley/protocol';
import type { ExtensionHost, SessionInfo } from '../conversation/extension-host.js';
import type { ServerTool } from '../conversation/server-tool.js';
import { HttpError } from '../http-error.js';
import type { Clock } from '../time/clock.js';
import { systemClock } from '../time/system-clock.js';
import { checkOptions, type OptionKeys } from '../utils/check-options.js';
import { builtInCatalogue, type Catalogue, type ExtensionAgent, type ModelDefinition } from './catalogue.js';
import { erpProvider } from './mcp/erp-provider.js';
import { Gateway } from './mcp/gateway.js';
import type { ProviderConfig } from './mcp/provider-config.js';
import { type QuotaRule, QuotaTracker } from './quota.js';
import { type Document, type DocumentInput, toDocument } from './rag/document.js';
import type { IndexOptions } from './rag/document-index.js';
import { HANDBOOK_DOCUMENTS, HANDBOOK_INDEX, HANDBOOK_INDEX_OPTIONS } from './rag/handbook.js';
import { prefetchContent } from './rag/prefetch-content.js';
import { Retriever } from './rag/retriever.js';
import { createSearchDocumentsTool } from './rag/search-documents-tool.js';

/** An index's documents with its options, e.g. `{ documents, language: 'german' }`. */
export interface IndexInput extends IndexOptions {
  documents: readonly (Document | DocumentInput)[];
}

/** Options of {@link createExtensionHost}; an `ExtensionsConfig` read from a file (indexes resolved) fits. */
export interface ExtensionHostOptions {
  /** Time for quotas, provider timeouts and ERP order dates; the system clock by default. */
  clock?: Clock;
  /** Keep the built-in agents, models, `handbook` index and `erp` provider (default true). */
  builtins?: boolean;
  /** Agents added to (or replacing) the built-in ones. */
  agents?: Record<string, ExtensionAgent>;
  /** The agent Minimal sessions resolve to (`default` when built-ins are kept). */
  defaultAgentId?: string;
  /** Models added to (or replacing) the built-in ones. */
  models?: Record<string, ModelDefinition>;
  /** Document indexes added to (or replacing) the built-in `handbook`: documents (English) or `{ documents, language }`. */
  indexes?: Record<string, readonly (Document | DocumentInput)[] | IndexInput>;
  /** Tool providers added to the built-in `erp`. */
  providers?: readonly ProviderConfig[];
  /** Per-call timeout of provider calls, default 10 000 ms. */
  providerTimeoutMs?: number;
  /** Per-product message quotas; none by default. */
  quotas?: readonly QuotaRule[];
}

/**
 * Every key of {@link ExtensionHostOptions}, with its type (also the server's `extensions`): a new
 * option is one more line here (TypeScript fails until it is).
 */
export const EXTENSION_HOST_OPTION_KEYS = {
  clock: 'object',
  builtins: 'boolean',
  agents: 'object',
  defaultAgentId: 'string',
  models: 'object',
  indexes: 'object',
  providers: 'array',
  providerTimeoutMs: 'number',
  quotas: 'array',
} as const satisfies OptionKeys<ExtensionHostOptions>;

/** The retrieval and provider settings a session ends up with (its own, else its agent's). */
export interface ResolvedExtensions {
  /** `undefined` when the session has no retrieval. */
  rag: RagConfig | undefined;
  mcpProviders: string[];
}

/** The extension host of a reference server, with its parts exposed for wiring and tests. */
export interface ParleyExtensionHost extends Required<ExtensionHost> {
  readonly catalogue: Catalogue;
  readonly retriever: Retriever;
  readonly gateway: Gateway;
  /** The retrieval and providers a session gets: see {@link resolveExtensions}. */
  resolve(session: Pick<SessionInfo, 'customizations' | 'agentId'>): ResolvedExtensions;
  /** Closes provider connections. Call it when the server closes. */
  close(): Promise<void>;
}

/**
 * Creates the extension host: document retrieval (`extensions.rag`), gateway tool providers
 * (`extensions.mcpProviders`) and per-product quotas, with the built-in agent and model catalogue.
 *
 * @example
 * const host = createExtensionHost({ quotas: [{ product: 'checkout', messagesPerMinute: 2 }] });
 * const server = createReferenceServer({ extensionHost: host }); // its catalogue and providers come along
 * // or simply: createReferenceServer({ extensions: { quotas: [...] } })
 */
export function createExtensionHost(options: ExtensionHostOptions = {}): ParleyExtensionHost {
  checkOptions(options, EXTENSION_HOST_OPTION_KEYS, 'createExtensionHost()');
  const clock = options.clock ?? systemClock;
  const builtins = options.builtins !== false;
  const base = builtins ? builtInCatalogue() : { agents: {}, defaultAgentId: '', models: {} };
  const catalogue: Catalogue = {
    agents: { ...base.agents, ...options.agents },
    defaultAgentId: options.defaultAgentId ?? base.defaultAgentId,
    models: { ...base.models, ...options.models },
  };
  const retriever = new Retriever();
  if (builtins) retriever.add(HANDBOOK_INDEX, HANDBOOK_DOCUMENTS, HANDBOOK_INDEX_OPTIONS);
  for (const [name, source] of Object.entries(options.indexes ?? {})) {
    if (Array.isArray(source)) retriever.add(name, source.map(toDocument));
    else {
      const { documents, ...indexOptions } = source as IndexInput;
      retriever.add(name, documents.map(toDocument), indexOptions);
    }
  }
  const gateway = new Gateway({
    providers: [...(builtins ? [erpProvider({ clock })] : []), ...(options.providers ?? [])],
    clock,
    ...(options.providerTimeoutMs === undefined ? {} : { timeoutMs: options.providerTimeoutMs }),
  });
  const quota = new QuotaTracker(options.quotas ?? [], clock);

  const resolve = (session: Pick<SessionInfo, 'customizations' | 'agentId'>) =>
    resolveExtensions(
      session.customizations,
      session.agentId === undefined ? undefined : catalogue.agents[session.agentId],
    );

  return {
    catalogue,
    retriever,
    gateway,
    resolve,

    validateSession(customizations: Customizations): void {
      const extensions = customizations.extensions;
      extensions?.mcpProviders?.forEach((name, i) => {
        if (!gateway.has(name)) {
          throw new HttpError(
            'unknown_provider',
            `customizations.extensions.mcpProviders.${i}: unknown provider "${name}" (registered: ${list(gateway.names)})`,
            { details: { provider: name, registered: gateway.names } },
          );
        }
      });
      extensions?.rag?.indexes?.forEach((name, i) => {
        if (!retriever.has(name)) {
          throw new HttpError(
            'unknown_index',
            `customizations.extensions.rag.indexes.${i}: unknown index "${name}" (registered: ${list(retriever.names)})`,
            { details: { index: name, registered: retriever.names } },
          );
        }
      });
    },

    async serverTools(session: SessionInfo): Promise<ServerTool[]> {
      const { rag, mcpProviders } = resolve(session);
      const tools: ServerTool[] = [];
      if (rag !== undefined) tools.push(createSearchDocumentsTool(retriever, rag));
      tools.push(...(await gateway.serverTools(mcpProviders)));
      return tools;
    },

    prefetches(session: SessionInfo): boolean {
      return resolve(session).rag?.prefetchEnabled === true;
    },

    async prefetch(
      session: SessionInfo,
      userText: string,
      signal: AbortSignal,
    ): Promise<ContentBlock[] | undefined> {
      const { rag } = resolve(session);
      if (rag?.prefetchEnabled !== true) return undefined;
      const hits = await retriever.search(userText, rag);
      signal.throwIfAborted();
      return hits.length === 0 ? undefined : prefetchContent(userText, hits);
    },

    checkQuota(session: SessionInfo): void {
      quota.admit(session.customizations.product);
    },

    sessionDeleted(): void {
      // No per-session state: connections and quotas belong to the server.
    },

    reset(): void {
      quota.reset();
      gateway.reset();
    },

    close: () => gateway.close(),
  };
}

/**
 * The session's extensions on top of its agent's: `rag` is the session's `extensions.rag` if set,
 * else the agent's; providers are the agent's followed by the session's (duplicates once). An empty
 * `rag.indexes` list searches nothing, so it means no retrieval at all.
 */
export function resolveExtensions(
  customizations: Customizations,
  agent: ExtensionAgent | undefined,
): ResolvedExtensions {
  const rag = customizations.extensions?.rag ?? agent?.rag;
  const mcpProviders = [
    ...new Set([...(agent?.mcpProviders ?? []), ...(customizations.extensions?.mcpProviders ?? [])]),
  ];
  return { rag: rag?.indexes?.length === 0 ? undefined : rag, mcpProviders };
}

function list(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}
