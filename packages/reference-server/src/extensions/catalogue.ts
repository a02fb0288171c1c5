import type { RagConfig } from '@parley/protocol';
import {
  type AgentDefinition,
  DEFAULT_AGENT_ID,
  DEFAULT_AGENTS,
  DEFAULT_MODELS,
} from '../conversation/agents.js';
import { ERP_PROVIDER } from './mcp/erp/erp-names.js';
import { HANDBOOK_INDEX } from './rag/handbook.js';

/** An agent bundle with the extensions its sessions get (on top of the session's own). */
export interface ExtensionAgent extends AgentDefinition {
  description?: string;
  /** Providers every session of the agent has, merged with `extensions.mcpProviders`. */
  mcpProviders?: string[];
  /** Retrieval defaults, used when the session does not set `extensions.rag`. */
  rag?: RagConfig;
}

/** A foundation model the Full variant may name in `customizations.model`. */
export interface ModelDefinition {
  description?: string;
  /** Default inference parameters. */
  parameters?: { maxTokens?: number; temperature?: number };
}

/** Agents, the default agent and models. */
export interface Catalogue {
  agents: Record<string, ExtensionAgent>;
  defaultAgentId: string;
  models: Record<string, ModelDefinition>;
}

/** Built-in agents that use the built-in extensions, next to the core's default agents. */
export const EXTENSION_AGENTS: Readonly<Record<string, ExtensionAgent>> = {
  support: {
    description: 'Customer support answering from the handbook (public documents only).',
    systemPrompt:
      'You are a customer support assistant. Answer from the company handbook: search it with ' +
      'search_documents and name the ids of the documents you used.',
    rag: {
      indexes: [HANDBOOK_INDEX],
      prefetchEnabled: true,
      maxResults: 3,
      tagFilter: { include: { visibility: ['public'] } },
    },
    parameters: { maxTokens: 1024, temperature: 0.2 },
  },
  'erp-assistant': {
    description: 'Back-office assistant with the ERP tools (customers, orders, invoices, stock).',
    systemPrompt:
      'You help the back office with customers, orders, invoices and stock. Use the erp__ tools; ' +
      'confirm with the user before creating or cancelling an order.',
    mcpProviders: [ERP_PROVIDER],
    parameters: { maxTokens: 1024, temperature: 0 },
  },
};

/** The built-in catalogue: the core's agents and models plus {@link EXTENSION_AGENTS}. */
export function builtInCatalogue(): Catalogue {
  return {
    agents: structuredClone({ ...DEFAULT_AGENTS, ...EXTENSION_AGENTS }) as Record<string, ExtensionAgent>,
    defaultAgentId: DEFAULT_AGENT_ID,
    models: Object.fromEntries(DEFAULT_MODELS.map((id) => [id, {}])),
  };
}
