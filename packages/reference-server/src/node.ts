export type { CliContext, CliEnv, CliIo, CliResult } from './adapters/cli-main.js';
export { runCli } from './adapters/cli-main.js';
export type { RunningServer, StartServerOptions } from './adapters/start-server.js';
export { startServer } from './adapters/start-server.js';
export { StopFailure } from './adapters/stop-failure.js';
export type { SignalSource, StopSignal } from './adapters/stop-on-signals.js';
export { stopOnSignals } from './adapters/stop-on-signals.js';
