// Tool names the stand-in model's directives produce. They live with the model, the lowest layer
// that needs them; the extensions that serve these tools re-export them under their old names.

/** Name of the retrieval server tool as the model sees it. */
export const SEARCH_DOCUMENTS_TOOL = 'search_documents';

/** Separator between provider name and tool name in the names the model sees. */
export const PROVIDER_TOOL_SEPARATOR = '__';
