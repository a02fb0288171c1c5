// `@parley/sdk/worker`: tool handlers in workers. One source for every runtime: `#platform` (the
// `imports` of package.json) resolves by export condition to the Node adapter (`worker_threads`)
// under `node`, and to the Web Worker adapter everywhere else (browsers, Deno, Bun).

import { spawnToolWorker, toolWorkerEndpoint } from '#platform';
import type { ToolObject } from './tools/define/tool-schema.js';
import {
  createWorkerHandler,
  type WorkerHandlerOptions,
  type WorkerToolHandler,
} from './tools/worker/create-worker-handler.js';
import { serveToolHandlerOn, type ToolWorkerHandler } from './tools/worker/serve-tool-handler.js';

export type {
  ToolWorkerExit,
  WorkerHandlerOptions,
  WorkerToolHandler,
} from './tools/worker/create-worker-handler.js';
export type { ToolWorkerContext, ToolWorkerHandler } from './tools/worker/serve-tool-handler.js';

/**
 * A tool handler that runs each call in its own worker (a `worker_threads` thread on Node, a module
 * Web Worker elsewhere), so a CPU-bound handler cannot starve
 * the heartbeat on the main thread. The module at `module` calls {@link serveToolHandler}. The
 * input reaches the worker after the tool's input schema parsed it; the output comes back to the
 * output schema; both must be plain JSON data. When the call's signal aborts (call lost, run
 * aborted) or `timeoutMs` passes, the worker's `ctx.signal` aborts and, after `abortGraceMs`, the
 * worker is terminated.
 *
 * @example
 * // main.ts
 * const checksum = defineTool({
 *   name: 'checksum',
 *   description: 'SHA-256 of a large generated file',
 *   input: z.object({ size: z.number() }),
 *   run: workerHandler(new URL('./checksum-worker.js', import.meta.url), { timeoutMs: 60_000 }),
 * });
 * // checksum-worker.js
 * serveToolHandler(({ size }, { signal }) => ({ digest: heavyHash(size, signal) }));
 */
export function workerHandler<
  TInput extends ToolObject = ToolObject,
  TOutput extends ToolObject = ToolObject,
>(module: string | URL, options: WorkerHandlerOptions = {}): WorkerToolHandler<TInput, TOutput> {
  return createWorkerHandler(spawnToolWorker, module, options);
}

/**
 * Serves a tool handler in a worker module started by {@link workerHandler}; call it once, at the
 * top level of the module. What the handler returns, or throws, goes back to the main thread.
 */
export function serveToolHandler<
  TInput extends ToolObject = ToolObject,
  TOutput extends ToolObject = ToolObject,
>(handler: ToolWorkerHandler<TInput, TOutput>): void {
  serveToolHandlerOn(toolWorkerEndpoint(), handler as unknown as ToolWorkerHandler);
}
