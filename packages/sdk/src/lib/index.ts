export type { AnyTool, DefineToolOptions, Tool, ToolContext, ToolOutputOf } from './define-tool.js';
export { defineTool, RESERVED_OUTPUT_FIELD, toolsToExtensions } from './define-tool.js';
export type { HeartbeatEndReason, HeartbeatOptions } from './heartbeat.js';
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
} from './heartbeat.js';
export type { JsonSchema } from './json-schema.js';
export { jsonSchema } from './json-schema.js';
export type { ReportRetryOptions } from './report-with-retry.js';
export { MAX_REPORT_ATTEMPTS, reportWithRetry } from './report-with-retry.js';
export type {
  RunToolOptions,
  ToolRunAlreadySettled,
  ToolRunComplete,
  ToolRunError,
  ToolRunLost,
  ToolRunOutput,
  ToolRunResult,
  ToolRunStatus,
} from './run-tool.js';
export { reportUnknownTool, runTool } from './run-tool.js';
export type { RunToolLoopOptions, ToolLoopClient, ToolLoopStream } from './run-tool-loop.js';
export { DEFAULT_MAX_STEPS, DEFAULT_TOOL_CONCURRENCY, runToolLoop } from './run-tool-loop.js';
export type { DeclaredTools } from './session-tools.js';
export { MAX_REMEMBERED_SESSIONS } from './session-tools.js';
export type { ToolLoopExecutor, ToolLoopResult, ToolLoopStep } from './tool-loop-run.js';
export { ToolLoopRun } from './tool-loop-run.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  isToolOutputTooLargeError,
  ToolOutputTooLargeError,
} from './tool-output-too-large.js';
export type {
  ObjectSchema,
  SchemaInput,
  SchemaIssue,
  SchemaOutput,
  ToolObject,
  ToolSchema,
} from './tool-schema.js';
export { formatIssues } from './tool-schema.js';
export type { ToolClient, ToolRequestOptions, ToolTransport } from './tool-transport.js';
