// `@parley/sdk`: the client, its resources' types, `MessageStream`, the errors (`instanceof` works
// across copies of the SDK and across realms),
// tools (`defineTool`, `jsonSchema`, `runToolLoop`) and the wire types. The tool machinery a worker
// author drives by hand (`runTool`, the heartbeat) is on `@parley/sdk/tools`; tool handlers in
// workers on `@parley/sdk/worker`; the partial JSON parser on `@parley/sdk/partial-input`. Tuning
// constants are not exported one by one: read them on `defaults`.
export type { ParleyOptions } from './client.js';
export { Parley } from './client.js';
export type { WithResponse } from './core/api-promise.js';
export { APIPromise } from './core/api-promise.js';
export type { FetchLike, Logger, RequestOptions } from './core/http-client.js';
export type { LogLevel } from './core/log-level.js';
export { defaults } from './defaults.js';
export type {
  APIErrorInit,
  StreamErrorInit,
  ToolCallLostReason,
  ValidationIssue,
} from './errors/index.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  ParleyError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ReplyRecoveryError,
  ResponseValidationError,
  StreamError,
  ToolApprovalTimeoutError,
  ToolCallLostError,
  ToolNotDeclaredError,
  ToolOutputTooLargeError,
  ToolReportError,
  ToolTimeoutError,
  ToolWorkerDataError,
  ToolWorkerError,
  ToolWorkerTimeoutError,
} from './errors/index.js';
export type { ToolExecutionFailure } from './errors/tool-execution-error.js';
export type { RecoverOptions, RecoveryAction, RecoveryAttempt } from './recovery/recover-options.js';
export type {
  Messages,
  SendMessageParams,
  SendRequestOptions,
  StreamRequestOptions,
} from './resources/messages.js';
export type { CreateSessionParams, Sessions } from './resources/sessions.js';
export type { Tools } from './resources/tools.js';
// Partial tool input (the parser itself is in `@parley/sdk/partial-input`) and relayed streams.
export type { StreamTimeouts } from './streaming/body-reader.js';
export { MessageStream } from './streaming/message-stream.js';
export type { MessageSnapshot } from './streaming/reply-accumulator.js';
export type { MessageStreamEvents } from './streaming/stream-consumers.js';
export type {
  KnownStreamEvent,
  KnownStreamEventItem,
  MessageStreamEvent,
  RecoveredStreamEvent,
  StreamEventItem,
  StreamEventOf,
  UnknownStreamEvent,
  UnknownStreamEventItem,
} from './streaming/stream-events.js';
export type { FromReadableStreamOptions } from './streaming/stream-relay.js';
export type {
  AnyToolInputs,
  DeepPartial,
  PartialInput,
  ToolInputDelta,
  ToolInputDeltaOf,
  ToolInputMap,
} from './streaming/tool-input-delta.js';
export type {
  AnyTool,
  DefineToolOptions,
  NeedsApproval,
  Tool,
  ToolApprovalCall,
  ToolContext,
  ToolMiddleware,
  ToolMiddlewareCall,
  ToolOutputOf,
} from './tools/define/define-tool.js';
export { defineTool, toolsToExtensions } from './tools/define/define-tool.js';
export type { JsonSchema } from './tools/define/json-schema.js';
export { jsonSchema } from './tools/define/json-schema.js';
export type {
  ObjectSchema,
  SchemaInput,
  SchemaIssue,
  SchemaOutput,
  ToolObject,
  ToolSchema,
} from './tools/define/tool-schema.js';
export type {
  RunToolLoopOptions,
  ToolLoopClient,
  ToolLoopSendOptions,
  ToolLoopStream,
} from './tools/loop/run-tool-loop.js';
export { runToolLoop } from './tools/loop/run-tool-loop.js';
export type { DeclaredTools } from './tools/loop/session-tools.js';
export type { StopCondition } from './tools/loop/stop-conditions.js';
export { hasToolCall, stepCountIs } from './tools/loop/stop-conditions.js';
export type {
  ToolLoopReattach,
  ToolLoopResult,
  ToolLoopRun,
  ToolLoopStep,
  ToolLoopStop,
} from './tools/loop/tool-loop-run.js';
export type { ModelPrice, ToolLoopPrices } from './tools/loop/usage-budget.js';
export type { ToolInputRepair, ToolInputRepairer, ToolInputRepairRequest } from './tools/run/input-repair.js';
export type { RunToolOptions } from './tools/run/run-tool.js';
export type {
  ToolApproval,
  ToolApprovalAnswer,
  ToolApprovalRequest,
  ToolApprover,
} from './tools/run/tool-approval.js';
export type {
  ToolRunAlreadySettled,
  ToolRunComplete,
  ToolRunError,
  ToolRunLost,
  ToolRunOutput,
  ToolRunResult,
  ToolRunStatus,
} from './tools/run/tool-run-result.js';
export type { ToolClient, ToolRequestOptions, ToolTransport } from './tools/run/tool-transport.js';
export type {
  AttributesLike,
  AttributeValueLike,
  ContextLike,
  SpanLike,
  SpanOptionsLike,
  TracerLike,
  TracerOption,
} from './tracing/tracer-like.js';
export type {
  ContentBlock,
  ContentBlockDelta,
  ContentBlockStart,
  Customizations,
  ErrorCode,
  ErrorDetails,
  ErrorDetailsByCode,
  ErrorDetailsOf,
  ExceptionEventKind,
  ExceptionPayload,
  Extensions,
  FullCustomizations,
  JsonObject,
  KnownStreamEventKind,
  Message,
  MessageReply,
  MinimalCustomizations,
  OpenToolCall,
  PendingTool,
  RagConfig,
  RequestIssue,
  RewindResponse,
  Role,
  SessionSummary,
  SimpleCustomizations,
  StopReason,
  StreamEventPayloads,
  TextBlock,
  TextDelta,
  ToolCall,
  ToolCallState,
  ToolDefinition,
  ToolResultBlock,
  ToolResultBlockStart,
  ToolResultContent,
  ToolResultDelta,
  ToolResultDeltaPart,
  ToolUseBlock,
  ToolUseBlockStart,
  ToolUseDelta,
  Usage,
  UserContentBlock,
} from './wire/index.js';
export { ERROR_CODES } from './wire/index.js';
