// The tool helpers `client.runToolLoop` and `client.tools.run` load on their first call (see
// load-tool-helpers.ts): the loop's body and `runTool`, with the heartbeat and p-limit behind them.
// One module for both, so that a bundler makes them one chunk, which an app that never runs a tool
// never downloads.

export { runToolLoopSteps } from './loop/tool-loop-steps.js';
export { ToolLoopTrace } from './loop/tool-loop-trace.js';
export { runTool } from './run/run-tool.js';
