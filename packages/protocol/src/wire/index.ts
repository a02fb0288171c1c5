// `@parley/protocol/wire`: the wire types of the protocol as plain TypeScript, as a client reads
// them. Types only: the module is erased at run time and needs no schema library, so the SDK
// re-exports these types and its build inlines them into its declarations. The zod schemas of
// this package are checked against them (test/wire-types.test-d.ts): what a schema accepts or
// sends fits these types. Where a client must accept more than today's server sends (a stop
// reason or a content kind added later), the type is open and says so.
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
export type { ErrorDetailsByCode, OpenToolCall, RequestIssue } from './error-details.js';
export type {
  ExportMessagesResponse,
  ListSessionsResponse,
  Message,
  MessageReply,
  PendingTool,
  RewindRequest,
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
export type {
  HeartbeatLease,
  HeartbeatRequest,
  ToolCallLeasedDetails,
  ToolResponseRequest,
} from './tool-call-requests.js';
