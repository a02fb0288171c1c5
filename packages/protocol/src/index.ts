export type {
  ContentBlock,
  JsonObject,
  TextBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
} from './content.js';
export {
  ContentBlockSchema,
  JsonObjectSchema,
  ResponseContentBlockSchema,
  TextBlockSchema,
  ToolResultBlockSchema,
  ToolResultContentSchema,
  ToolUseBlockSchema,
} from './content.js';
export type {
  Customizations,
  Extensions,
  FullCustomizations,
  MinimalCustomizations,
  RagConfig,
  SimpleCustomizations,
} from './customizations.js';
export {
  CustomizationsSchema,
  ExtensionsSchema,
  RAG_MAX_RESULTS_DEFAULT,
  RAG_MAX_RESULTS_LIMIT,
  RagConfigSchema,
} from './customizations.js';
export type { ErrorBody, ErrorCode } from './errors.js';
export { ERROR_CODES, ErrorBodySchema, REQUEST_ID_HEADER, statusOf } from './errors.js';
export type { Message, Role } from './message.js';
export { MessageSchema, RoleSchema } from './message.js';
export type {
  ExportMessagesResponse,
  MessageReply,
  PendingTool,
  RewindRequest,
  RewindResponse,
  SendMessageRequest,
  StopReason,
  ToolCallState,
  Usage,
  UserContentBlock,
} from './send-message.js';
export {
  ExportMessagesResponseSchema,
  MessageReplySchema,
  PendingToolSchema,
  RewindRequestSchema,
  RewindResponseSchema,
  SendMessageRequestSchema,
  StopReasonSchema,
  ToolCallStateSchema,
  UsageSchema,
  UserContentBlockSchema,
} from './send-message.js';
export type { CreateSessionResponse, ListSessionsResponse, SessionSummary } from './session.js';
export {
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  ListSessionsResponseSchema,
  SessionSummarySchema,
} from './session.js';
export type {
  ExceptionEventKind,
  KnownStreamEventKind,
  StreamBody,
  StreamEvent,
  StreamEventPayload,
} from './stream-events.js';
export {
  ContentBlockDeltaSchema,
  ContentBlockStartSchema,
  ContentBlockStopSchema,
  EXCEPTION_EVENT_KINDS,
  ExceptionSchema,
  isKnownStreamEventKind,
  MessageStartSchema,
  MessageStopSchema,
  MetadataSchema,
  ReplyStopSchema,
  STREAM_EVENT_SCHEMAS,
} from './stream-events.js';
export type { HeartbeatLease, HeartbeatRequest, ToolCall, ToolResponseRequest } from './tool-call.js';
export {
  HeartbeatLeaseSchema,
  HeartbeatRequestSchema,
  HeartbeatTimestampSchema,
  LEASE_TOKEN_HEADER,
  LeaseTokenSchema,
  ToolCallSchema,
  ToolResponseRequestSchema,
} from './tool-call.js';
export type { ToolDefinition } from './tool-definition.js';
export {
  JsonSchemaObjectSchema,
  MAX_TOOLS_PER_SESSION,
  TOOL_NAME_PATTERN,
  ToolDefinitionSchema,
  ToolNameSchema,
} from './tool-definition.js';
