import * as z from 'zod';
import {
  ContentBlockSchema,
  ResponseContentBlockSchema,
  TextBlockSchema,
  ToolResultBlockSchema,
  ToolResultContentSchema,
  ToolUseBlockSchema,
} from '../content.js';
import { CustomizationsSchema, ExtensionsSchema, RagConfigSchema } from '../customizations.js';
import { ErrorBodySchema } from '../errors.js';
import { MessageSchema, RoleSchema } from '../message.js';
import {
  ExportMessagesResponseSchema,
  MessageReplySchema,
  PendingToolSchema,
  RewindRequestSchema,
  RewindResponseSchema,
  SendMessageRequestSchema,
  ToolCallStateSchema,
  UsageSchema,
  UserContentBlockSchema,
} from '../send-message.js';
import {
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  ListSessionsResponseSchema,
  SessionSummarySchema,
} from '../session.js';
import {
  ContentBlockDeltaSchema,
  ContentBlockStartSchema,
  ContentBlockStopSchema,
  ExceptionSchema,
  MessageStartSchema,
  MessageStopSchema,
  MetadataSchema,
  ReplyStopSchema,
} from '../stream-events.js';
import { HeartbeatRequestSchema, ToolCallSchema, ToolResponseRequestSchema } from '../tool-call.js';
import { MAX_TOOLS_PER_SESSION, ToolDefinitionSchema } from '../tool-definition.js';

/** A JSON Schema (2020-12) object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [keyword: string]: unknown };

type Meta = { id?: string; description?: string; [keyword: string]: unknown };

/** Where a component schema lives in the document. */
export const schemaRef = (id: string): JsonSchema => ({ $ref: `#/components/schemas/${id}` });

/**
 * The wire schemas that become named components, each with a description. Schemas they contain
 * that are named here too become `$ref`s; the rest are inlined.
 */
const NAMED: ReadonlyArray<[z.ZodType, Meta & { id: string }]> = [
  [ErrorBodySchema, { id: 'ErrorBody', description: 'The body of every error response.' }],
  [CreateSessionRequestSchema, { id: 'CreateSessionRequest', description: 'Session create body.' }],
  [
    CustomizationsSchema,
    {
      id: 'Customizations',
      description:
        'Simple (`agentId`), Full (`model`) or Minimal (neither; may carry `sessionData`). `agentId` and `model` are mutually exclusive; `sessionData` belongs to the Minimal variant.',
      // The zod refinements, as JSON Schema: no agentId with model, no sessionData with either.
      dependentSchemas: {
        agentId: { properties: { model: false, sessionData: false } },
        model: { properties: { sessionData: false } },
      },
    },
  ],
  [ExtensionsSchema, { id: 'Extensions', description: 'Client tools, retrieval and tool providers.' }],
  [RagConfigSchema, { id: 'RagConfig', description: 'Document retrieval (`extensions.rag`).' }],
  [
    ToolDefinitionSchema,
    {
      id: 'ToolDefinition',
      description: 'A client-supplied tool; `name` equals its key under `extensions.tools`.',
    },
  ],
  [CreateSessionResponseSchema, { id: 'CreateSessionResponse', description: 'A created session.' }],
  [SessionSummarySchema, { id: 'SessionSummary', description: 'One session of the caller.' }],
  [
    ListSessionsResponseSchema,
    { id: 'ListSessionsResponse', description: "The caller's sessions, newest first." },
  ],
  [RoleSchema, { id: 'Role', description: 'Who authored a message.' }],
  [TextBlockSchema, { id: 'TextBlock', description: 'A text block.' }],
  [
    ToolUseBlockSchema,
    { id: 'ToolUseBlock', description: 'The model asks for a tool; `id` is the requestId.' },
  ],
  [ToolResultContentSchema, { id: 'ToolResultContent', description: 'One part of a tool result.' }],
  [
    ToolResultBlockSchema,
    { id: 'ToolResultBlock', description: 'A settled tool call, inserted by the server.' },
  ],
  [ContentBlockSchema, { id: 'ContentBlock', description: 'A content block of a known kind.' }],
  [
    ResponseContentBlockSchema,
    {
      id: 'ResponseContentBlock',
      description:
        'A content block as responses carry it: a known kind, or a kind added later (pass it through).',
    },
  ],
  [
    MessageSchema,
    { id: 'Message', description: 'A message of a conversation. Order by `index`, never by `createdAt`.' },
  ],
  [UserContentBlockSchema, { id: 'UserContentBlock', description: 'What a client may author: text.' }],
  [
    SendMessageRequestSchema,
    { id: 'SendMessageRequest', description: 'A user turn; without `content` the call resumes.' },
  ],
  [ToolCallStateSchema, { id: 'ToolCallState', description: 'The state of a tool call.' }],
  [PendingToolSchema, { id: 'PendingTool', description: 'A client tool call the reply stopped for.' }],
  [UsageSchema, { id: 'Usage', description: 'Token counts of a reply.' }],
  [MessageReplySchema, { id: 'MessageReply', description: 'The buffered reply to a send.' }],
  [
    ExportMessagesResponseSchema,
    { id: 'ExportMessagesResponse', description: 'The messages of a session in index order.' },
  ],
  [RewindRequestSchema, { id: 'RewindRequest', description: 'The user message to rewind to.' }],
  [RewindResponseSchema, { id: 'RewindResponse', description: 'What a rewind retracted and abandoned.' }],
  [
    HeartbeatRequestSchema,
    { id: 'HeartbeatRequest', description: 'A liveness beat (`PROCESSING`) or a failure report (`ERROR`).' },
  ],
  [
    ToolResponseRequestSchema,
    { id: 'ToolResponseRequest', description: 'A tool result; fields besides `state` reach the model.' },
  ],
  [ToolCallSchema, { id: 'ToolCall', description: 'One tool call as the server sees it now.' }],
  [MessageStartSchema, { id: 'MessageStart', description: 'A message begins; `index` is its index.' }],
  [
    ContentBlockStartSchema,
    { id: 'ContentBlockStart', description: 'A tool-use or tool-result block begins.' },
  ],
  [
    ContentBlockDeltaSchema,
    {
      id: 'ContentBlockDelta',
      description: 'Text, a fragment of tool-input JSON text, or a tool result.',
    },
  ],
  [ContentBlockStopSchema, { id: 'ContentBlockStop', description: 'A content block ends.' }],
  [
    MessageStopSchema,
    { id: 'MessageStop', description: 'A message ends; `stopReason` on assistant messages.' },
  ],
  [MetadataSchema, { id: 'Metadata', description: 'Usage and metrics of one model call.' }],
  [ReplyStopSchema, { id: 'ReplyStop', description: 'The last event of a completed reply.' }],
  [
    ExceptionSchema,
    { id: 'Exception', description: 'An error after the headers were sent; `code` is from the error table.' },
  ],
];

/** JSON Schema keywords for unnamed schemas: what their zod refinements check. */
function refinementKeywords(): ReadonlyArray<[z.ZodType, Meta]> {
  const [knownBlock, laterBlock] = ResponseContentBlockSchema.in.options;
  return [
    [laterBlock.shape.type, { not: { enum: knownBlock.options.map((option) => option.shape.type.value) } }],
    [ExtensionsSchema.shape.tools.unwrap(), { maxProperties: MAX_TOOLS_PER_SESSION }],
  ];
}

/**
 * The component schemas of the OpenAPI document, generated from the zod wire schemas: the input
 * side (what goes over the wire), JSON Schema 2020-12.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<Meta>();
  for (const [schema, meta] of [...NAMED, ...refinementKeywords()]) registry.add(schema, meta);
  const { schemas } = z.toJSONSchema(registry, {
    metadata: registry,
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    // A union of one member (a discriminated union kept for its error message) is that member.
    override: ({ jsonSchema }) => {
      const { oneOf } = jsonSchema;
      if (Array.isArray(oneOf) && oneOf.length === 1) {
        delete jsonSchema.oneOf;
        Object.assign(jsonSchema, oneOf[0]);
      }
    },
  });
  const components: Record<string, JsonSchema> = {};
  for (const [, { id }] of NAMED) {
    const { $schema: _dialect, $id: _id, ...schema } = schemas[id] ?? {};
    components[id] = schema;
  }
  return components;
}
