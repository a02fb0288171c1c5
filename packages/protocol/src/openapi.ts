// `@parley/protocol/openapi`: the OpenAPI 3.1 document, generated from the wire schemas. A separate
// entry so that importing the schemas does not bring in the JSON Schema generator.
export type { JsonSchema } from './openapi/component-schemas.js';
export { createOpenApiDocument, type OpenApiDocument } from './openapi/create-openapi-document.js';
export { STREAM_EVENT_KINDS } from './openapi/stream-event-schemas.js';
