export type {
  ContentBlock,
  JsonObject,
  TextBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
  UserContentBlock,
} from './content.js';
export type {
  Customizations,
  Extensions,
  FullCustomizations,
  MinimalCustomizations,
  RagConfig,
  SimpleCustomizations,
  ToolDefinition,
} from './customizations.js';
export type { ErrorCode } from './error-codes.js';
export { ERROR_CODES } from './error-codes.js';
export type {
  ErrorDetails,
  ErrorDetailsByCode,
  ErrorDetailsOf,
  OpenToolCall,
  RequestIssue,
} from './error-details.js';
export type {
  ExportMessagesResponse,
  ListSessionsResponse,
  Message,
  MessageReply,
  PendingTool,
  RewindResponse,
  Role,
  SendMessageRequest,
  SessionSummary,
  StopReason,
  ToolCall,
  ToolCallState,
  Usage,
} from './message.js';
export type {
  ContentBlockDelta,
  ContentBlockDeltaPayload,
  ContentBlockStart,
  ContentBlockStartPayload,
  ContentBlockStopPayload,
  ExceptionEventKind,
  ExceptionPayload,
  KnownStreamEventKind,
  MessageStartPayload,
  MessageStopPayload,
  MetadataPayload,
  ReplyStopPayload,
  StreamEventPayloads,
  TextDelta,
  ToolResultBlockStart,
  ToolResultDelta,
  ToolResultDeltaPart,
  ToolUseBlockStart,
  ToolUseDelta,
} from './stream-event-payloads.js';
