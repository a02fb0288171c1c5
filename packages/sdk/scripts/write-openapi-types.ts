// Writes the TypeScript types that openapi-typescript generates from the OpenAPI document; the
// generated-client test uses them with openapi-fetch. Run by `pnpm openapi`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from '../test/openapi/render-openapi-types.js';

writeFileSync(OPENAPI_TYPES_FILE, await renderOpenApiTypes());
console.log(`wrote ${fileURLToPath(OPENAPI_TYPES_FILE)}`);
