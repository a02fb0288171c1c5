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
  isToolReportError,
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
  ToolReportError,
} from './errors/index.js';
export * from './lib/index.js';
export {
  isToolWorkerDataError,
  isToolWorkerError,
  isToolWorkerTimeoutError,
  ToolWorkerDataError,
  ToolWorkerError,
  ToolWorkerTimeoutError,
} from './lib/tool-worker-errors.js';
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
