import { DEFAULT_ABORT_GRACE_MS } from '../../defaults.js';
import { ToolWorkerDataError } from '../../errors/index.js';
import { warnUnknownOptions } from '../../internal/unknown-options.js';
import { describeValue } from '../../internal/wrong-value.js';
import type { ToolContext } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
import { findNonPlainData } from './plain-data.js';
import type { ToolWorkerSpawner } from './tool-worker-spawner.js';
import type { WorkerHandlerOptions } from './worker-handler-options.js';
import { WorkerHost } from './worker-host.js';

export type { ToolWorkerExit, WorkerHandlerOptions } from './worker-handler-options.js';

/** A handler for `defineTool({ run })` that runs the tool's work in a worker. */
export type WorkerToolHandler<TInput extends ToolObject, TOutput extends ToolObject> = (
  input: TInput,
  ctx: ToolContext,
) => Promise<TOutput>;

/** Builds `workerHandler` for one runtime. */
export function createWorkerHandler<TInput extends ToolObject, TOutput extends ToolObject>(
  spawn: ToolWorkerSpawner,
  module: string | URL,
  options: WorkerHandlerOptions,
): WorkerToolHandler<TInput, TOutput> {
  warnUnknownOptions(options, 'workerHandler()');
  const { timeoutMs, abortGraceMs = DEFAULT_ABORT_GRACE_MS } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(
      `workerHandler: timeoutMs must be a positive number of milliseconds, got ${describeValue(timeoutMs)}`,
    );
  }
  if (!(Number.isFinite(abortGraceMs) && abortGraceMs >= 0)) {
    throw new RangeError(
      `workerHandler: abortGraceMs must be a number >= 0, got ${describeValue(abortGraceMs)}`,
    );
  }
  return (input, ctx) =>
    runInWorker(spawn, module, { ...options, abortGraceMs }, input, ctx) as Promise<TOutput>;
}

async function runInWorker(
  spawn: ToolWorkerSpawner,
  module: string | URL,
  options: WorkerHandlerOptions & { abortGraceMs: number },
  input: ToolObject,
  ctx: ToolContext,
): Promise<ToolObject> {
  ctx.signal.throwIfAborted();
  const problem = findNonPlainData(input, 'input');
  if (problem) {
    throw new ToolWorkerDataError(
      `Tool "${ctx.name}": its parsed input cannot be sent to its worker: ${problem.path} is ${problem.found}. ` +
        'An input schema for a tool worker must produce plain JSON data.',
      { path: problem.path, cause: problem.thrown },
    );
  }
  return new WorkerHost(spawn, module, options, input, ctx).result;
}
