// The public surface of the extensions (browser-safe). Node-only file loading is in `load-files.ts`.

export type { Directive, DirectiveContext, TurnPlan } from '../model/directives.js';
export { EXTENSION_DIRECTIVES } from '../model/directives.js';
export type { Catalogue, ExtensionAgent, ModelDefinition } from './catalogue.js';
export { builtInCatalogue, EXTENSION_AGENTS } from './catalogue.js';
export type {
  ExtensionHostOptions,
  IndexInput,
  ParleyExtensionHost,
  ResolvedExtensions,
} from './create-extension-host.js';
export { createExtensionHost, resolveExtensions } from './create-extension-host.js';
export type { ExtensionsConfig } from './extensions-config.js';
export {
  ExtensionsConfigError,
  ExtensionsConfigSchema,
  isExtensionsConfigError,
  loadExtensionsConfig,
  toExtensionHostOptions,
} from './extensions-config.js';
export { createErpServer } from './mcp/erp/create-erp-server.js';
export type {
  Customer,
  ErpData,
  Invoice,
  InvoiceStatus,
  Order,
  OrderLine,
  OrderStatus,
  Product,
} from './mcp/erp/erp-data.js';
export { erpSeedData } from './mcp/erp/erp-data.js';
export { ERP_PROVIDER, ERP_TOOL_NAMES } from './mcp/erp/erp-names.js';
export { ERP_OUTPUT_SCHEMAS } from './mcp/erp/erp-output-schemas.js';
export type { ErpServerOptions } from './mcp/erp/erp-server.js';
export { erpProvider } from './mcp/erp-provider.js';
export type { GatewayOptions, ProviderTool } from './mcp/gateway.js';
export { Gateway } from './mcp/gateway.js';
export type { McpHttpEndpoint, McpHttpEndpointOptions } from './mcp/mcp-http-endpoint.js';
export { MCP_HTTP_PREFIX, mcpHttpEndpoint } from './mcp/mcp-http-endpoint.js';
export type {
  HttpProviderConfig,
  InProcessProviderConfig,
  ProviderConfig,
  ProviderFileConfig,
  StdioProviderConfig,
  TransportProviderConfig,
} from './mcp/provider-config.js';
export {
  DEFAULT_PROVIDER_TIMEOUT_MS,
  PROVIDER_NAME_PATTERN,
  PROVIDER_TOOL_SEPARATOR,
  ProviderFileConfigSchema,
} from './mcp/provider-config.js';
export { isProviderTimeoutError, ProviderTimeoutError } from './mcp/with-timeout.js';
export type { QuotaRule } from './quota.js';
export { QuotaTracker } from './quota.js';
export type { Document, DocumentInput, DocumentProblem } from './rag/document.js';
export {
  DocumentInputSchema,
  DocumentLoadError,
  isDocumentLoadError,
  parseDocuments,
  toDocument,
} from './rag/document.js';
export type { DocumentHit, IndexOptions, IndexSearchOptions } from './rag/document-index.js';
export { DocumentIndex } from './rag/document-index.js';
export { HANDBOOK_DOCUMENTS, HANDBOOK_INDEX, HANDBOOK_INDEX_OPTIONS } from './rag/handbook.js';
export type { IndexLanguage } from './rag/index-language.js';
export { DEFAULT_INDEX_LANGUAGE, INDEX_LANGUAGES } from './rag/index-language.js';
export { PREFETCH_JSON_KEY, prefetchContent } from './rag/prefetch-content.js';
export type { IndexDefinition } from './rag/retriever.js';
export { Retriever } from './rag/retriever.js';
export { createSearchDocumentsTool, SEARCH_DOCUMENTS_TOOL } from './rag/search-documents-tool.js';
export type { TagFilter } from './rag/tag-filter.js';
export { matchesTagFilter } from './rag/tag-filter.js';
