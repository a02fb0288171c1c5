export type { CliIo } from './cli-main.js';
export { runCli } from './cli-main.js';
export type { RunningServer, StartServerOptions } from './start-server.js';
export { startServer } from './start-server.js';
