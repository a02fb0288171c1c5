export type { AgentDefinition } from './agents.js';
export { DEFAULT_AGENT_ID, DEFAULT_AGENTS, DEFAULT_MODELS, DEFAULT_PROVIDERS } from './agents.js';
export type { Clock } from './clock.js';
export type { ReferenceServer, ReferenceServerOptions } from './create-reference-server.js';
export { createReferenceServer, DEMO_USER } from './create-reference-server.js';
export type { ExtensionHost, SessionInfo } from './extension-host.js';
export * from './extensions/index.js';
export type { HttpErrorOptions } from './http-error.js';
export { HttpError, isHttpError, toHttpError } from './http-error.js';
export { ManualClock } from './manual-clock.js';
export type { Model, ModelEvent, ModelRequest, ModelTool } from './model/model.js';
export { ModelError } from './model/model.js';
export { InvalidScriptError, isInvalidScriptError, loadScript } from './model/script-file.js';
export type {
  Script,
  ScriptedReply,
  ScriptFunction,
  ScriptRule,
  ScriptRules,
  TextMatcher,
  TurnMatch,
} from './model/scripted-model.js';
export { scriptedModel } from './model/scripted-model.js';
export type { StandInModelOptions } from './model/stand-in-model.js';
export { createStandInModel, standInModel } from './model/stand-in-model.js';
export type { ScriptedToolUse, ScriptedTurn, TurnExtras } from './model/turn.js';
export { turn, turnToEvents } from './model/turn.js';
export { MAX_MODEL_CALLS_PER_REPLY, SERVER_TOOL_LIMIT_STOP_REASON } from './reply-runner.js';
export type { ServerTool, ServerToolContext, ServerToolResult } from './server-tool.js';
export type { RunningServer, StartServerOptions } from './start-server.js';
export { startServer } from './start-server.js';
export { systemClock } from './system-clock.js';
export { CONTROL_PREFIX } from './testing/control-routes.js';
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
export type { SessionSnapshot } from './testing/session-snapshot.js';
export type { User } from './token-auth.js';
