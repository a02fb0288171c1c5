import * as z from 'zod';
import { MAX_TOOLS_PER_SESSION, type ToolDefinition, ToolDefinitionSchema } from './tool-definition.js';

/** `rag.maxResults` when omitted, and its largest accepted value. */
export const RAG_MAX_RESULTS_DEFAULT = 5;
export const RAG_MAX_RESULTS_LIMIT = 50;

const TagMapSchema = z.record(z.string().min(1), z.array(z.string()));

/** Retrieval configuration (`customizations.extensions.rag`). */
export const RagConfigSchema = z.strictObject({
  indexes: z.array(z.string().min(1)).optional(),
  prefetchEnabled: z.boolean().optional(),
  maxResults: z.number().int().min(1).max(RAG_MAX_RESULTS_LIMIT).optional(),
  tagFilter: z
    .strictObject({
      include: TagMapSchema.optional(),
      exclude: TagMapSchema.optional(),
    })
    .optional(),
});
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

export const ExtensionsSchema = z.strictObject({
  tools: z
    .record(z.string(), ToolDefinitionSchema)
    .superRefine((tools, ctx) => {
      const names = Object.keys(tools);
      if (names.length > MAX_TOOLS_PER_SESSION) {
        ctx.addIssue({ code: 'custom', message: `at most ${MAX_TOOLS_PER_SESSION} tools per session` });
      }
      for (const name of names) {
        if (tools[name]?.name !== name) {
          ctx.addIssue({ code: 'custom', path: [name, 'name'], message: `must equal its key "${name}"` });
        }
      }
    })
    .optional(),
  rag: RagConfigSchema.optional(),
  mcpProviders: z.array(z.string().min(1)).optional(),
});
export type Extensions = {
  /** Client-supplied tools, keyed by name. */
  tools?: Record<string, ToolDefinition>;
  /** Document retrieval. */
  rag?: RagConfig;
  /** Tool providers loaded through the gateway, e.g. `['erp']`. */
  mcpProviders?: string[];
};

/**
 * The wire schema of `customizations`: every field optional, `agentId` and `model` mutually
 * exclusive, `sessionData` only without both (the Minimal variant). Unknown fields are rejected so a
 * typo is a 400, not a silently ignored setting.
 */
export const CustomizationsSchema = z
  .strictObject({
    product: z.string().min(1).max(128).optional(),
    agentId: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    sessionData: z.unknown().optional(),
    extensions: ExtensionsSchema.optional(),
  })
  .superRefine((c, ctx) => {
    if (c.agentId !== undefined && c.model !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['model'],
        message: 'agentId and model are mutually exclusive: use agentId (Simple) or model (Full), not both',
      });
    }
    if (c.sessionData !== undefined && (c.agentId !== undefined || c.model !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['sessionData'],
        message: 'sessionData belongs to the Minimal variant (no agentId, no model)',
      });
    }
  });

/** Simple (most common): an agent bundle, optionally extensions and a product. */
export interface SimpleCustomizations {
  agentId: string;
  model?: never;
  sessionData?: never;
  product?: string;
  extensions?: Extensions;
}
/** Full (advanced): a foundation model instead of an agent; compose prompts and tools yourself. */
export interface FullCustomizations {
  model: string;
  agentId?: never;
  sessionData?: never;
  product?: string;
  extensions?: Extensions;
}
/** Minimal: no agent, no model; resolves to the default agent at message time. */
export interface MinimalCustomizations {
  agentId?: never;
  model?: never;
  product?: string;
  extensions?: Extensions;
  sessionData?: unknown;
}
export type Customizations = SimpleCustomizations | FullCustomizations | MinimalCustomizations;
