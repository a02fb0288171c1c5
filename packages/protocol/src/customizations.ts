import * as z from 'zod';
import { MAX_TOOLS_PER_SESSION, ToolDefinitionSchema } from './tool-definition.js';

export type {
  Customizations,
  Extensions,
  FullCustomizations,
  MinimalCustomizations,
  RagConfig,
  SimpleCustomizations,
} from './wire/customizations.js';

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
