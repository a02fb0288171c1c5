/**
 * A client-supplied tool. `name` equals its key under `extensions.tools`; `requestArgs` is a JSON
 * Schema whose `type` is `"object"`; `responseShape` is optional.
 */
export type ToolDefinition = {
  name: string;
  description: string;
  requestArgs: { type: 'object'; [key: string]: unknown };
  responseShape?: Record<string, unknown>;
};

/** Retrieval configuration (`customizations.extensions.rag`). */
export type RagConfig = {
  /** Indexes to search; all registered indexes when omitted. */
  indexes?: string[];
  /** Retrieve documents for the first user message and inject them as a `system` message. */
  prefetchEnabled?: boolean;
  /** Documents per query, 1 to 50; 5 when omitted. */
  maxResults?: number;
  tagFilter?: {
    /** For every named tag, a document must carry one of the accepted values. */
    include?: Record<string, string[]>;
    /** A document carrying any listed value of a named tag is dropped. */
    exclude?: Record<string, string[]>;
  };
};

export type Extensions = {
  /** Client-supplied tools, keyed by name. */
  tools?: Record<string, ToolDefinition>;
  /** Document retrieval. */
  rag?: RagConfig;
  /** Tool providers loaded through the gateway, e.g. `['erp']`. */
  mcpProviders?: string[];
};

/** Simple (most common): an agent bundle, optionally extensions and a product. */
export type SimpleCustomizations = {
  agentId: string;
  model?: never;
  sessionData?: never;
  product?: string;
  extensions?: Extensions;
};
/** Full (advanced): a foundation model instead of an agent; compose prompts and tools yourself. */
export type FullCustomizations = {
  model: string;
  agentId?: never;
  sessionData?: never;
  product?: string;
  extensions?: Extensions;
};
/** Minimal: no agent, no model; resolves to the default agent at message time. */
export type MinimalCustomizations = {
  agentId?: never;
  model?: never;
  product?: string;
  extensions?: Extensions;
  sessionData?: unknown;
};
/** `customizations` of a new session: one of the three variants. */
export type Customizations = SimpleCustomizations | FullCustomizations | MinimalCustomizations;
