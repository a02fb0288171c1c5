export type { RunningServer, StartServerOptions } from './adapters/start-server.js';
export { startServer } from './adapters/start-server.js';
export { cassetteFileExists, readCassetteFile } from './cassette/cassette-file.js';
export type {
  Cassette,
  CassetteSession,
  CassetteTurn,
  RecordedEvent,
  ToolResponse,
  TurnInput,
} from './cassette/cassette-format.js';
export {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  CassetteSchema,
  InvalidCassetteError,
  parseCassette,
  parseCassetteText,
} from './cassette/cassette-format.js';
export type { CassetteRecorder, CassetteRecorderOptions } from './cassette/cassette-recorder.js';
export { createCassetteRecorder } from './cassette/cassette-recorder.js';
export type { CassetteRedaction } from './cassette/cassette-redaction.js';
export { REDACTED, redactCassette } from './cassette/cassette-redaction.js';
export { formatCassette } from './cassette/cassette-text.js';
export type { ReplayOptions, ReplaySessionMatch } from './cassette/replay-model.js';
export { REPLAY_MISMATCH } from './cassette/replay-model.js';
export { writeCassetteFile } from './cassette/write-cassette-file.js';
export type { AgentDefinition } from './conversation/agents.js';
export {
  DEFAULT_AGENT_ID,
  DEFAULT_AGENTS,
  DEFAULT_MODELS,
  DEFAULT_PROVIDERS,
} from './conversation/agents.js';
export type { ExtensionHost, SessionInfo } from './conversation/extension-host.js';
export { MAX_MODEL_CALLS_PER_REPLY, SERVER_TOOL_LIMIT_STOP_REASON } from './conversation/reply-runner.js';
export type { ServerTool, ServerToolContext, ServerToolResult } from './conversation/server-tool.js';
export type { ReferenceServer, ReferenceServerOptions } from './create-reference-server.js';
export { createReferenceServer, DEMO_USER } from './create-reference-server.js';
export * from './extensions/index.js';
export type { AllowedHosts } from './http/allowed-hosts.js';
export type { CorsOrigins } from './http/cors-policy.js';
export type { ProtocolViolation } from './http/protocol-violation.js';
export type { User } from './http/token-auth.js';
export type {
  HttpErrorDetailsOf,
  HttpErrorOptions,
  ServerErrorCode,
  ServerErrorDetailsByCode,
} from './http-error.js';
export { HttpError, isHttpError, SERVER_ERROR_CODES, toHttpError } from './http-error.js';
// The directive table of the stand-in model and the helpers for writing a directive of your own.
export { DIRECTIVES, directiveError, parseJsonObjectArgument, splitFirstWord } from './model/directives.js';
export type { Model, ModelEvent, ModelRequest, ModelTool } from './model/model.js';
export { ModelError } from './model/model.js';
export { DEFAULT_TOOL_INPUT_FRAGMENT_LENGTH } from './model/model-events.js';
export { InvalidScriptError, isInvalidScriptError, loadScript } from './model/script-file.js';
export type {
  Script,
  ScriptedReply,
  ScriptFunction,
  ScriptRule,
  ScriptRules,
  TextMatcher,
  TurnMatch,
} from './model/script-types.js';
export { scriptedModel } from './model/scripted-model.js';
export type { StandInModelOptions } from './model/stand-in-model.js';
export { createStandInModel, standInModel } from './model/stand-in-model.js';
export type { StreamPace } from './model/stream-pace.js';
export { pacedEvents } from './model/stream-pace.js';
export type { ScriptedToolUse, ScriptedTurn, TurnExtras, TurnStreamOptions } from './model/turn.js';
export { turn, turnToEvents } from './model/turn.js';
export type { CheckingProxy } from './proxy/checking-proxy.js';
export type { ProxyExchange, ProxyObserver } from './proxy/proxy-exchange.js';
export type { ProxyReportSnapshot, ViolationRule } from './proxy/proxy-report.js';
export { proxyReportJunit } from './proxy/proxy-report-junit.js';
export { isProxyViolationsError, ProxyViolationsError } from './proxy/proxy-violations-error.js';
export type { UpstreamOptions } from './proxy/upstream-options.js';
export { DEFAULT_UPSTREAM_TIMEOUT_MS } from './proxy/upstream-options.js';
export type { RecordConfig, ReplayConfig } from './reference-server-options.js';
export type { ChaosKind, ChaosOptions, LatencyDistribution } from './testing/chaos-options.js';
export { CHAOS_KINDS } from './testing/chaos-options.js';
export { CONTROL_TOKEN_HEADER } from './testing/control-access.js';
export { CONTROL_PREFIX } from './testing/control-prefix.js';
export type { EventTime } from './testing/event-timeline.js';
export type { Fault, StreamFault } from './testing/fault.js';
export {
  FAULT_HEADER,
  InjectedDropError,
  isInjectedDropError,
  MALFORMED_MARKER,
  parseFaultHeader,
} from './testing/fault.js';
export type { QueuedFault } from './testing/fault-queue.js';
export { FaultQueue } from './testing/fault-queue.js';
export type { JournalEntry, JournalFilter, JournalResponse } from './testing/journal.js';
export { Journal } from './testing/journal.js';
export type { PathPattern } from './testing/path-pattern.js';
export type { ChaosMark } from './testing/seeded-chaos.js';
export type { SessionSnapshot } from './testing/session-snapshot.js';

import type { TestHandle } from './testing/test-handle.js';

export type { TestFaults, TestHandle } from './testing/test-handle.js';
/** @deprecated Renamed {@link TestHandle} (what `server.testScope(id)` returns). */
export type TestScope = TestHandle;
export type { Clock } from './time/clock.js';
export { ManualClock } from './time/manual-clock.js';
export { systemClock } from './time/system-clock.js';
export { MAX_TEST_ID_LENGTH, TEST_ID_HEADER } from './utils/test-id.js';
