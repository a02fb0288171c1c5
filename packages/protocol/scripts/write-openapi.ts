// Writes the generated OpenAPI document to packages/protocol/openapi.json and docs/openapi.json.
// Run `pnpm openapi` after changing a wire schema; a test fails while the files are stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILES, renderOpenApiJson } from './openapi-files.js';

const text = renderOpenApiJson();
for (const file of OPENAPI_FILES) {
  writeFileSync(file, text);
  console.log(`wrote ${fileURLToPath(file)}`);
}
