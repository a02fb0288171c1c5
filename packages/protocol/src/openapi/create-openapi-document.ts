import { REQUEST_ID_HEADER } from '../errors.js';
import { componentSchemas, type JsonSchema } from './component-schemas.js';
import { openApiPaths } from './openapi-paths.js';
import { streamEventSchemas } from './stream-event-schemas.js';

/** An OpenAPI 3.1 document, as plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: Array<{ url: string; description: string }>;
  security: Array<Record<string, string[]>>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

const DESCRIPTION = `The Conversation Session Service as Parley implements it: sessions, messages (buffered and streamed), rewind and tool calls. Generated from the zod schemas of \`@parley/protocol\`; docs/protocol.md explains every rule.

- Every \`/v1\` operation needs \`Authorization: Bearer <token>\`; authentication is checked before the route, so an unauthenticated request to any \`/v1\` path is a 401.
- Every error has the body \`{ "error": { "code", "message", "details"? } }\`; each operation lists the statuses and codes it answers with. A method or path not listed here is \`404 route_not_found\`.
- Request bodies are strict (an unknown field is a 400); responses may gain fields and stream event kinds within \`v1\`: clients ignore what they do not know. Where a body is optional, only an absent or empty body is "no body": whitespace alone is \`400 invalid_json\`.
- Success responses carry links a stateful client can follow: a created session leads to its routes; a buffered reply's first pending tool (\`$response.body#/pendingTools/0/requestId\`) to the heartbeat, failure report (the heartbeat route with \`ERROR\`), response and read routes; a settled call to the resume. Request bodies have examples that can be sent as they are: the send's \`toolCall\` example makes the reference server's stand-in model call a tool.
- Every response carries an \`${REQUEST_ID_HEADER}\` header.`;

/**
 * The OpenAPI 3.1 document of the service, generated from the protocol's zod schemas and error
 * table. The reference server serves it at `GET /openapi.json`; the package ships it as
 * `@parley/protocol/openapi.json`.
 *
 * @example
 * const document = createOpenApiDocument();
 * document.paths['/v1/sessions'].post.operationId; // 'createSession'
 */
export function createOpenApiDocument(): OpenApiDocument {
  return {
    openapi: '3.1.1',
    info: {
      title: 'Conversation Session Service',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: the server that serves the document (the reference server listens on port 4010).
    servers: [{ url: '/', description: 'The server that serves this document' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Sessions', description: 'Create, list and delete sessions.' },
      { name: 'Messages', description: 'Send (buffered or streamed), export and rewind.' },
      { name: 'Tool calls', description: 'Heartbeat, fail, respond to and read client tool calls.' },
      { name: 'Document', description: 'This OpenAPI document.' },
      { name: 'Health', description: 'Readiness of the server.' },
    ],
    paths: openApiPaths(),
    components: {
      schemas: {
        ...componentSchemas(),
        ...streamEventSchemas(),
        Health: {
          type: 'object',
          description: 'The server answers requests.',
          properties: { status: { type: 'string', const: 'ok' } },
          required: ['status'],
        },
        OpenApiDocument: {
          type: 'object',
          description: 'An OpenAPI 3.1 document.',
          properties: {
            openapi: { type: 'string' },
            info: { type: 'object', additionalProperties: {} },
            paths: { type: 'object', additionalProperties: {} },
          },
          required: ['openapi', 'info', 'paths'],
          additionalProperties: {},
        },
      },
      parameters: {
        SessionId: {
          name: 'sessionId',
          in: 'path',
          required: true,
          description: 'The session id from create.',
          schema: { type: 'string' },
        },
        RequestId: {
          name: 'requestId',
          in: 'path',
          required: true,
          description: 'The tool call id: `requestId` of a pending tool (the `tool_use` block id).',
          schema: { type: 'string' },
        },
        IncludeDeleted: {
          name: 'includeDeleted',
          in: 'query',
          required: false,
          description:
            'Include retracted messages. Any value other than `true` or `false` is a 400, and so is the parameter given more than once (`invalid_request`).',
          schema: { type: 'boolean', default: false },
        },
      },
      headers: {
        RequestId: {
          description:
            "The server's id for the request; quote it when reporting a problem. Every response has one.",
          required: true,
          schema: { type: 'string', minLength: 1 },
        },
        WWWAuthenticate: { description: '`Bearer` (RFC 6750).', schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
        NoStore: { description: '`no-store`.', schema: { type: 'string' } },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An opaque token configured on the server (reference server default: `parley-demo-token`).',
        },
      },
    },
  };
}
