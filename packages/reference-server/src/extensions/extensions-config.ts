import { RagConfigSchema, ToolDefinitionSchema } from '@parley/protocol';
import * as z from 'zod';
import { findLostProtoKey, PROTO_KEY } from '../utils/lost-proto-key.js';
import { builtInCatalogue, type ExtensionAgent, type ModelDefinition } from './catalogue.js';
import type { ExtensionHostOptions, IndexInput } from './create-extension-host.js';
import { issueLines } from './format-issues.js';
import { ERP_PROVIDER } from './mcp/erp/erp-names.js';
import { type ProviderFileConfig, ProviderFileConfigSchema } from './mcp/provider-config.js';
import { type Document, type DocumentInput, DocumentInputSchema } from './rag/document.js';
import { HANDBOOK_INDEX } from './rag/handbook.js';
import { type IndexLanguage, isIndexLanguage, unknownLanguageMessage } from './rag/index-language.js';

const ParametersSchema = z.strictObject({
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
});

const AgentSchema = z.strictObject({
  description: z.string().optional(),
  systemPrompt: z.string(),
  tools: z.record(z.string(), ToolDefinitionSchema).optional(),
  parameters: ParametersSchema.optional(),
  mcpProviders: z.array(z.string().min(1)).optional(),
  rag: RagConfigSchema.optional(),
});

const ModelSchema = z.strictObject({
  description: z.string().optional(),
  parameters: ParametersSchema.optional(),
});

// Checked against the supported languages with the references, for an error that lists them.
const LanguageSchema = z.string().min(1).describe('Index language, default english');

const IndexSourceSchema = z.union([
  z.array(DocumentInputSchema),
  z.strictObject({
    file: z.string().min(1).describe('JSON or JSONL file, relative to the config file'),
    language: LanguageSchema.optional(),
  }),
  z.strictObject({ documents: z.array(DocumentInputSchema), language: LanguageSchema.optional() }),
]);

/**
 * The extensions config file (`--config FILE`). Everything is optional; what it names is added to the
 * built-ins (same name: replaced) unless `builtins` is `false`.
 */
export const ExtensionsConfigSchema = z.strictObject({
  /** Keep the built-in agents, models, `handbook` index and `erp` provider (default true). */
  builtins: z.boolean().optional(),
  agents: z.record(z.string().min(1), AgentSchema).optional(),
  defaultAgentId: z.string().min(1).optional(),
  models: z.record(z.string().min(1), ModelSchema).optional(),
  indexes: z.record(z.string().min(1), IndexSourceSchema).optional(),
  providers: z.array(ProviderFileConfigSchema).optional(),
  providerTimeoutMs: z.number().int().min(1).max(600_000).optional(),
  quotas: z
    .array(z.strictObject({ product: z.string().min(1), messagesPerMinute: z.number().int().min(1) }))
    .optional(),
});
export type ExtensionsConfig = z.output<typeof ExtensionsConfigSchema>;

/** A config that breaks the schema or names something that does not exist; `issues` name the fields. */
export class ExtensionsConfigError extends Error {
  override name = 'ExtensionsConfigError' as const;
  readonly issues: string[];
  constructor(source: string, issues: string[], options?: { cause?: unknown }) {
    super(`Invalid extensions config ${source}:\n  ${issues.join('\n  ')}`, options);
    this.issues = issues;
  }
}

export function isExtensionsConfigError(error: unknown): error is ExtensionsConfigError {
  return error instanceof Error && error.name === 'ExtensionsConfigError';
}

/**
 * Validates an extensions config (a parsed object or JSON text) and checks its references: the default
 * agent exists, and every agent names known providers and indexes (built-in or configured). Index
 * entries `{ "file": ... }` are left for the caller to read (`loadExtensionsConfigFile` in Node).
 *
 * @example
 * const config = loadExtensionsConfig('{"quotas":[{"product":"checkout","messagesPerMinute":2}]}');
 * const host = createExtensionHost(config);
 */
export function loadExtensionsConfig(json: unknown, source = '(inline)'): ExtensionsConfig {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new ExtensionsConfigError(source, [`not JSON: ${(error as Error).message}`], { cause: error });
    }
  }
  const parsed = ExtensionsConfigSchema.safeParse(value);
  if (!parsed.success) throw new ExtensionsConfigError(source, issueLines(parsed.error));
  const lost = findLostProtoKey(value, parsed.data);
  if (lost !== undefined) {
    throw new ExtensionsConfigError(source, [
      `${lost.join('.')}: a key named "${PROTO_KEY}" is not accepted here (it could not be kept)`,
    ]);
  }
  const config = parsed.data;
  const issues = referenceIssues(config);
  if (issues.length > 0) throw new ExtensionsConfigError(source, issues);
  return config;
}

function referenceIssues(config: ExtensionsConfig): string[] {
  const builtins = config.builtins !== false;
  const agents = { ...(builtins ? builtInCatalogue().agents : {}), ...config.agents };
  const providers = new Set([
    ...(builtins ? [ERP_PROVIDER] : []),
    ...(config.providers ?? []).map((p) => p.name),
  ]);
  const indexes = new Set([...(builtins ? [HANDBOOK_INDEX] : []), ...Object.keys(config.indexes ?? {})]);
  const issues: string[] = [];
  for (const [name, source] of Object.entries(config.indexes ?? {})) {
    if (!Array.isArray(source) && source.language !== undefined && !isIndexLanguage(source.language))
      issues.push(`indexes.${name}.language: ${unknownLanguageMessage(source.language)}`);
  }
  const seen = new Set<string>();
  (config.providers ?? []).forEach((p, i) => {
    if (seen.has(p.name)) issues.push(`providers.${i}.name: "${p.name}" is configured twice`);
    if (builtins && p.name === ERP_PROVIDER)
      issues.push(`providers.${i}.name: "${p.name}" is a built-in provider`);
    seen.add(p.name);
  });
  const defaultAgentId = config.defaultAgentId ?? (builtins ? builtInCatalogue().defaultAgentId : undefined);
  if (defaultAgentId === undefined) issues.push('defaultAgentId: required when builtins is false');
  else if (!Object.hasOwn(agents, defaultAgentId))
    issues.push(`defaultAgentId: no agent "${defaultAgentId}"`);
  for (const [id, agent] of Object.entries(config.agents ?? {})) {
    agent.mcpProviders?.forEach((name, i) => {
      if (!providers.has(name)) issues.push(`agents.${id}.mcpProviders.${i}: unknown provider "${name}"`);
    });
    agent.rag?.indexes?.forEach((name, i) => {
      if (!indexes.has(name)) issues.push(`agents.${id}.rag.indexes.${i}: unknown index "${name}"`);
    });
    for (const [key, tool] of Object.entries(agent.tools ?? {})) {
      if (tool.name !== key) issues.push(`agents.${id}.tools.${key}.name: must equal its key "${key}"`);
    }
  }
  return issues;
}

/**
 * Turns a validated config into `createExtensionHost` options. `files` holds the documents of the
 * indexes given as `{ "file": ... }`, by index name; such an index without documents is an error.
 */
export function toExtensionHostOptions(
  config: ExtensionsConfig,
  files: Readonly<Record<string, readonly Document[]>> = {},
): ExtensionHostOptions {
  const options: ExtensionHostOptions = {};
  if (config.builtins !== undefined) options.builtins = config.builtins;
  if (config.agents !== undefined) options.agents = config.agents as Record<string, ExtensionAgent>;
  if (config.defaultAgentId !== undefined) options.defaultAgentId = config.defaultAgentId;
  if (config.models !== undefined) options.models = config.models as Record<string, ModelDefinition>;
  if (config.providers !== undefined) options.providers = config.providers as ProviderFileConfig[];
  if (config.providerTimeoutMs !== undefined) options.providerTimeoutMs = config.providerTimeoutMs;
  if (config.quotas !== undefined) options.quotas = config.quotas;
  if (config.indexes !== undefined) {
    const indexes: Record<string, readonly (Document | DocumentInput)[] | IndexInput> = {};
    for (const [name, source] of Object.entries(config.indexes)) {
      if (Array.isArray(source)) {
        indexes[name] = source as DocumentInput[];
        continue;
      }
      const language = source.language === undefined ? {} : { language: source.language as IndexLanguage };
      if ('documents' in source) {
        indexes[name] = { documents: source.documents as DocumentInput[], ...language };
        continue;
      }
      const documents = files[name];
      if (documents === undefined) {
        throw new Error(
          `Index "${name}" is read from ${source.file}: load the file (loadExtensionsConfigFile)`,
        );
      }
      indexes[name] = { documents, ...language };
    }
    options.indexes = indexes;
  }
  return options;
}
