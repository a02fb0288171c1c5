// `@parley/sdk/tools`: the tool machinery a worker author drives by hand, when `runToolLoop` (in
// `@parley/sdk`) does too much: one call run to its report (`runTool`), the heartbeat timer on its
// own, the answer to a call for an unknown tool, and the awaitable, iterable run of a custom loop.

// The errors the tool helpers throw, also on `@parley/sdk`.
export { ToolApprovalTimeoutError, ToolTimeoutError } from './errors/index.js';
// What a middleware's `next()` rejects with: exported with the tool helpers whose pipeline throws it.
export type { ToolExecutionFailure } from './errors/tool-execution-error.js';
export { ToolExecutionError } from './errors/tool-execution-error.js';
export { RESERVED_OUTPUT_FIELD } from './tools/define/define-tool.js';
export { formatIssues } from './tools/define/tool-schema.js';
export type { ToolLoopExecutor, ToolLoopResult, ToolLoopStep } from './tools/loop/tool-loop-run.js';
export { ToolLoopRun } from './tools/loop/tool-loop-run.js';
// Budgets for `runToolLoop({ stopWhen })`: here, beside the loop's machinery, rather than on the root
// entry, whose runtime names are counted.
export { costAtLeast, usageAtLeast } from './tools/loop/usage-budget.js';
export type { HeartbeatEndReason, HeartbeatOptions } from './tools/run/heartbeat.js';
export { Heartbeat, heartbeatIntervalMs, jitteredIntervalMs } from './tools/run/heartbeat.js';
export { reportUnknownTool } from './tools/run/report-unknown-tool.js';
export type { RunToolOptions } from './tools/run/run-tool.js';
export { runTool } from './tools/run/run-tool.js';
export { startHeartbeat } from './tools/run/start-heartbeat.js';
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
