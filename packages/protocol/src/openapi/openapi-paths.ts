import type { ErrorCode } from '../errors.js';
import { type JsonSchema, schemaRef } from './component-schemas.js';
import {
  BODY_ERROR_CODES,
  COMMON_ERROR_CODES,
  errorResponses,
  headerRef,
  PROXY_ERROR_CODES,
} from './error-responses.js';
import { successLinks } from './openapi-links.js';
import { type ExampleSchema, REQUEST_EXAMPLES } from './request-examples.js';

interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  parameters?: string[];
  /** The request body's component and whether a body is required (`false`: it may be left out). */
  body?: { schema: ExampleSchema; required: boolean };
  /** The success status and its body (a component name, or none for an empty body). */
  success: { status: number; description: string; schema?: string; headers?: Record<string, JsonSchema> };
  /** Error codes besides the common ones (and the body ones when there is a body). */
  errors?: ErrorCode[];
  /** No authentication: no bearer token needed, never a 401. */
  public?: boolean;
}

const json = (schema: string) => ({ 'application/json': { schema: schemaRef(schema) } });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** A request body: its schema and the examples of that schema. */
function requestBody({ schema, required }: NonNullable<OperationSpec['body']>): JsonSchema {
  return {
    required,
    content: { 'application/json': { schema: schemaRef(schema), examples: REQUEST_EXAMPLES[schema] } },
  };
}

function operation(spec: OperationSpec): JsonSchema {
  const { success } = spec;
  const common = spec.public
    ? COMMON_ERROR_CODES.filter((code) => code !== 'unauthorized')
    : [...COMMON_ERROR_CODES, ...PROXY_ERROR_CODES];
  const codes = [...common, ...(spec.body ? BODY_ERROR_CODES : []), ...(spec.errors ?? [])];
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(spec.public ? { security: [] } : {}),
    ...(spec.parameters ? { parameters: spec.parameters.map(parameterRef) } : {}),
    ...(spec.body ? { requestBody: requestBody(spec.body) } : {}),
    responses: {
      [String(success.status)]: {
        description: success.description,
        headers: { 'x-request-id': headerRef('RequestId'), ...success.headers },
        ...(success.schema ? { content: json(success.schema) } : {}),
        ...successLinks(spec.operationId),
      },
      ...errorResponses(codes),
    },
  };
}

const SEND_ERRORS: ErrorCode[] = [
  'session_not_found',
  'reply_in_progress',
  'tool_calls_open',
  'resume_required',
  'nothing_to_resume',
  'quota_exceeded',
];
const SEND_BODY_NOTE =
  'The body is `{ "content": ... }` for a user turn, or `{}` / no body to resume after the tool calls of the last turn are settled.';
const TOOL_CALL_ERRORS: ErrorCode[] = ['session_not_found', 'tool_call_not_found', 'tool_call_terminal'];

/** Every path of the service and of the reference server's document route. */
export function openApiPaths(): Record<string, Record<string, JsonSchema>> {
  return {
    '/v1/sessions': {
      get: operation({
        operationId: 'listSessions',
        tag: 'Sessions',
        summary: 'List sessions',
        description: "The caller's own sessions, newest first.",
        success: { status: 200, description: 'The sessions.', schema: 'ListSessionsResponse' },
      }),
      post: operation({
        operationId: 'createSession',
        tag: 'Sessions',
        summary: 'Create a session',
        description:
          'The body is optional: no body, an empty body or `{}` create a Minimal session that resolves to the default agent at message time. Unknown fields are a 400.',
        body: { schema: 'CreateSessionRequest', required: false },
        success: { status: 201, description: 'The session was created.', schema: 'CreateSessionResponse' },
        errors: ['unknown_agent', 'unknown_model', 'unknown_provider', 'unknown_index'],
      }),
    },
    '/v1/sessions/{sessionId}': {
      delete: operation({
        operationId: 'deleteSession',
        tag: 'Sessions',
        summary: 'Delete a session',
        description:
          'A hard delete that cascades to messages and tool calls; a reply streaming in the session is aborted.',
        parameters: ['SessionId'],
        success: { status: 204, description: 'The session was deleted.' },
        errors: ['session_not_found'],
      }),
    },
    '/v1/messages/{sessionId}': {
      get: operation({
        operationId: 'exportMessages',
        tag: 'Messages',
        summary: 'Export the messages',
        description:
          'The messages of the session in index order; retracted ones only with `includeDeleted=true`.',
        parameters: ['SessionId', 'IncludeDeleted'],
        success: { status: 200, description: 'The messages.', schema: 'ExportMessagesResponse' },
        errors: ['invalid_request', 'session_not_found'],
      }),
      post: operation({
        operationId: 'sendMessage',
        tag: 'Messages',
        summary: 'Send a message (buffered)',
        description: `Runs the model and answers once the reply is complete. ${SEND_BODY_NOTE}`,
        parameters: ['SessionId'],
        body: { schema: 'SendMessageRequest', required: false },
        success: { status: 200, description: 'The complete reply.', schema: 'MessageReply' },
        errors: [...SEND_ERRORS, 'no_script_match', 'replay_mismatch', 'model_error'],
      }),
    },
    '/v1/messages/{sessionId}/stream': {
      post: operation({
        operationId: 'streamMessage',
        tag: 'Messages',
        summary: 'Send a message (streamed)',
        description: `Like the buffered send, but the reply is written as it is produced. ${SEND_BODY_NOTE} Errors found before the first byte are ordinary HTTP errors; a failure after it is one exception event at the end of \`events\`.`,
        parameters: ['SessionId'],
        body: { schema: 'SendMessageRequest', required: false },
        success: {
          status: 200,
          description:
            'The reply as a stream: `Content-Type: application/json`, the body `{"sessionId":...,"events":[...]}` written incrementally (chunked), one event at a time, so a client can parse each event as it arrives.',
          schema: 'StreamBody',
          headers: { 'Cache-Control': headerRef('NoStore') },
        },
        errors: SEND_ERRORS,
      }),
    },
    '/v1/messages/{sessionId}/rewind': {
      post: operation({
        operationId: 'rewindMessages',
        tag: 'Messages',
        summary: 'Rewind to a user message',
        description:
          'Retracts the client-authored user message at `index` (and the retrieval context prefetched for it) and every live message after it, and abandons the open tool calls it cuts off.',
        parameters: ['SessionId'],
        body: { schema: 'RewindRequest', required: true },
        success: { status: 200, description: 'What was retracted.', schema: 'RewindResponse' },
        errors: ['invalid_rewind_target', 'session_not_found', 'message_not_found', 'reply_in_progress'],
      }),
    },
    '/v1/tools/request/{sessionId}/{requestId}': {
      get: operation({
        operationId: 'getToolCall',
        tag: 'Tool calls',
        summary: 'Read a tool call',
        description: 'The tool call as the server sees it now (state, lease, deadline).',
        parameters: ['SessionId', 'RequestId'],
        success: { status: 200, description: 'The tool call.', schema: 'ToolCall' },
        errors: ['session_not_found', 'tool_call_not_found'],
      }),
    },
    '/v1/tools/request/{sessionId}/{requestId}/heartbeat': {
      post: operation({
        operationId: 'heartbeatToolCall',
        tag: 'Tool calls',
        summary: 'Heartbeat or report a failure',
        description:
          '`PROCESSING` renews the lease (the server records its own receive time); `ERROR` settles the call as failed.',
        parameters: ['SessionId', 'RequestId'],
        body: { schema: 'HeartbeatRequest', required: true },
        success: { status: 200, description: 'Recorded. The body is empty.' },
        errors: TOOL_CALL_ERRORS,
      }),
    },
    '/v1/tools/response/{sessionId}/{requestId}': {
      post: operation({
        operationId: 'respondToolCall',
        tag: 'Tool calls',
        summary: 'Submit a tool response',
        description:
          'Settles the call as `COMPLETE`. An identical repeat is answered 200 and changes nothing; a different one is a 409.',
        parameters: ['SessionId', 'RequestId'],
        body: { schema: 'ToolResponseRequest', required: true },
        success: { status: 200, description: 'Recorded. The body is empty.' },
        errors: TOOL_CALL_ERRORS,
      }),
    },
    '/openapi.json': {
      get: operation({
        operationId: 'getOpenApiDocument',
        tag: 'Document',
        summary: 'This document',
        description: 'The OpenAPI document of the service. No authentication.',
        success: { status: 200, description: 'The OpenAPI 3.1 document.', schema: 'OpenApiDocument' },
        public: true,
      }),
    },
    '/healthz': {
      get: operation({
        operationId: 'getHealth',
        tag: 'Health',
        summary: 'Readiness check',
        description:
          'Always served, outside `/v1`, without authentication: for container and CI readiness checks.',
        success: { status: 200, description: 'The server answers requests.', schema: 'Health' },
        public: true,
      }),
    },
  };
}
