import { createOpenApiDocument } from '@parley/protocol/openapi';

/** Where the generated document is committed: in the package, and beside the docs. */
export const OPENAPI_FILES = [
  new URL('../openapi.json', import.meta.url),
  new URL('../../../docs/openapi.json', import.meta.url),
] as const;

/** The text of `openapi.json` as the generator writes it. */
export function renderOpenApiJson(): string {
  return `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`;
}
