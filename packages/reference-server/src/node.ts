export type { CliContext, CliEnv, CliIo, CliResult } from './adapters/cli-main.js';
export { runCli } from './adapters/cli-main.js';
export type {
  SharedServer,
  SharedServerOptions,
  SharedTestScope,
} from './adapters/shared-server.js';
export { connectSharedServer, SHARED_SERVER_HEALTH_TIMEOUT_MS } from './adapters/shared-server.js';
export type { RunningServer, StartServerOptions } from './adapters/start-server.js';
export { startServer } from './adapters/start-server.js';
export { StopFailure } from './adapters/stop-failure.js';
export type { SignalSource, StopSignal } from './adapters/stop-on-signals.js';
export { stopOnSignals } from './adapters/stop-on-signals.js';
export type { TestAttempt } from './adapters/test-id-value.js';
export { testIdHeaderValue } from './adapters/test-id-value.js';
export type { ScopeAccess } from './adapters/test-scope.js';
export type {
  CassetteLintOptions,
  CassetteLintResult,
  LintFinding,
  LintRule,
} from './cassette/cassette-lint.js';
export { lintCassetteFile, lintExitCode } from './cassette/cassette-lint.js';
export type { CassetteListing } from './cassette/cassette-listing.js';
export { formatCassetteListing, listCassetteFile } from './cassette/cassette-listing.js';
export type { LiveTurn } from './drift/drift-compare.js';
export { textSimilarity } from './drift/drift-compare.js';
export { driftReportJunit, formatDriftReport } from './drift/drift-format.js';
export type { DriftOptions } from './drift/drift-run.js';
export { DriftUpstreamError, driftReport } from './drift/drift-run.js';
export type {
  DriftDifference,
  DriftKind,
  DriftReport,
  DriftUsage,
  SessionDrift,
  TurnDrift,
} from './drift/drift-types.js';
export { DRIFT_KINDS } from './drift/drift-types.js';
