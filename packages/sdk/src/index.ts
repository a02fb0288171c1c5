export type { ParleyOptions } from './client.js';
export {
  BASE_URL_ENV,
  DEFAULT_MAX_RETRIES,
  DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  Parley,
  TOKEN_ENV,
} from './client.js';
export type { WithResponse } from './core/api-promise.js';
export { APIPromise } from './core/api-promise.js';
export type { FetchLike, Logger, RequestOptions } from './core/http-client.js';
export type { LogLevel } from './core/log-level.js';
export { LOG_LEVEL_ENV } from './core/log-level.js';
export { INITIAL_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS } from './core/retry-policy.js';
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
  isAPIConnectionError,
  isAPIError,
  isAPITimeoutError,
  isAPIUserAbortError,
  isAuthenticationError,
  isBadRequestError,
  isConflictError,
  isInternalServerError,
  isNotFoundError,
  isParleyError,
  isPayloadTooLargeError,
  isPermissionDeniedError,
  isRateLimitError,
  isReplayMismatchError,
  isResponseValidationError,
  isStreamError,
  isToolCallLostError,
  isToolNotDeclaredError,
  isToolOutputTooLargeError,
  isToolReportError,
  isToolWorkerDataError,
  isToolWorkerError,
  isToolWorkerTimeoutError,
  MAX_RETRY_AFTER_MS,
  NotFoundError,
  ParleyError,
  PayloadTooLargeError,
  PermissionDeniedError,
  parseRetryAfter,
  RateLimitError,
  ResponseValidationError,
  StreamError,
  ToolCallLostError,
  ToolNotDeclaredError,
  ToolOutputTooLargeError,
  ToolReportError,
  ToolWorkerDataError,
  ToolWorkerError,
  ToolWorkerTimeoutError,
} from './errors/index.js';
export type { SendMessageParams, StreamRequestOptions } from './resources/messages.js';
export { Messages } from './resources/messages.js';
export type { CreateSessionParams } from './resources/sessions.js';
export { Sessions } from './resources/sessions.js';
export { Tools } from './resources/tools.js';
export { STREAM_HIGH_WATER_MARK, STREAM_LOW_WATER_MARK } from './streaming/event-queue.js';
// Partial tool input (the parser itself is in `@parley/sdk/partial-input`) and relayed streams.
export type {
  AnyToolInputs,
  DeepPartial,
  FromReadableStreamOptions,
  MessageStreamEvents,
  PartialInput,
  StreamTimeouts,
  ToolInputDelta,
  ToolInputDeltaOf,
  ToolInputMap,
} from './streaming/message-stream.js';
export { MessageStream } from './streaming/message-stream.js';
export type { MessageSnapshot } from './streaming/reply-accumulator.js';
export type {
  KnownStreamEvent,
  KnownStreamEventItem,
  MessageStreamEvent,
  StreamEventItem,
  StreamEventOf,
  UnknownStreamEvent,
  UnknownStreamEventItem,
} from './streaming/stream-events.js';
export type {
  AnyTool,
  DefineToolOptions,
  Tool,
  ToolContext,
  ToolOutputOf,
} from './tools/define/define-tool.js';
export { defineTool, RESERVED_OUTPUT_FIELD, toolsToExtensions } from './tools/define/define-tool.js';
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
export { formatIssues } from './tools/define/tool-schema.js';
export type { RunToolLoopOptions, ToolLoopClient, ToolLoopStream } from './tools/loop/run-tool-loop.js';
export { DEFAULT_MAX_STEPS, DEFAULT_TOOL_CONCURRENCY, runToolLoop } from './tools/loop/run-tool-loop.js';
export type { DeclaredTools } from './tools/loop/session-tools.js';
export { MAX_REMEMBERED_SESSIONS } from './tools/loop/session-tools.js';
export type { ToolLoopExecutor, ToolLoopResult, ToolLoopStep } from './tools/loop/tool-loop-run.js';
export { ToolLoopRun } from './tools/loop/tool-loop-run.js';
export type { HeartbeatEndReason, HeartbeatOptions } from './tools/run/heartbeat.js';
export {
  ASSUMED_HEARTBEAT_TIMEOUT_MS,
  BEATS_PER_TIMEOUT,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_JITTER,
  Heartbeat,
  heartbeatIntervalMs,
  jitteredIntervalMs,
  LOCAL_TIMEOUT_BUFFER_MS,
  MAX_HEARTBEAT_INTERVAL_MS,
  MIN_HEARTBEAT_INTERVAL_MS,
  startHeartbeat,
} from './tools/run/heartbeat.js';
export { DEFAULT_MAX_BODY_BYTES } from './tools/run/output-size.js';
export type { ReportRetryOptions } from './tools/run/report.js';
export { MAX_REPORT_ATTEMPTS, reportWithRetry } from './tools/run/report.js';
export type {
  RunToolOptions,
  ToolRunAlreadySettled,
  ToolRunComplete,
  ToolRunError,
  ToolRunLost,
  ToolRunOutput,
  ToolRunResult,
  ToolRunStatus,
} from './tools/run/run-tool.js';
export { reportUnknownTool, runTool } from './tools/run/run-tool.js';
export type { ToolClient, ToolRequestOptions, ToolTransport } from './tools/run/tool-transport.js';
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
