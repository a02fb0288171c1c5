import type { ToolContext } from '../define/tool-context.js';
import type { ToolObject } from '../define/tool-schema.js';
import { findNonPlainData } from './plain-data.js';
import {
  ABORT_FLAG,
  type HostMessage,
  isToolWorkerMessage,
  nonPlainOutputMessage,
  TOOL_WORKER_PROTOCOL,
  toWireError,
  type WorkerMessage,
} from './tool-worker-messages.js';

/**
 * What a handler running in a tool worker gets besides its input: what a handler on the main thread
 * gets ({@link ToolContext}), its signal made for the worker, and the `workerData`.
 */
export interface ToolWorkerContext extends Omit<ToolContext, 'signal'> {
  /**
   * Aborted when the call is lost, the run is aborted or `timeoutMs` passes. Its `aborted`,
   * `reason` and `throwIfAborted()` are correct even inside a loop that never awaits (the host
   * flags the abort in shared memory; where `SharedArrayBuffer` is unavailable, as on a browser
   * page that is not cross-origin isolated, only once the handler awaits).
   */
  signal: AbortSignal;
  /** The `workerData` given to `workerHandler` (structured-cloned: a `SharedArrayBuffer` stays shared). */
  workerData: unknown;
}

/** A tool handler that runs in a worker: the input was parsed by the tool's schema on the main thread. */
export type ToolWorkerHandler<
  TInput extends ToolObject = ToolObject,
  TOutput extends ToolObject = ToolObject,
> = (input: TInput, ctx: ToolWorkerContext) => TOutput | Promise<TOutput>;

/** The worker's end of the channel to its host (`parentPort` in Node, the worker scope on the web). */
export interface ToolWorkerEndpoint {
  post(message: WorkerMessage): void;
  listen(listener: (data: unknown) => void): void;
}

/**
 * Serves one tool call on `endpoint`: says it is ready, waits for the call, runs `handler` and
 * sends back the output (checked to be plain JSON data) or what it threw.
 */
export function serveToolHandlerOn(endpoint: ToolWorkerEndpoint, handler: ToolWorkerHandler): void {
  let controller: AbortController | undefined;
  endpoint.listen((data) => {
    if (!isToolWorkerMessage<HostMessage>(data)) return;
    if (data.kind === 'abort') {
      controller?.abort(wireReason(data.reason.name, data.reason.message));
      return;
    }
    if (controller !== undefined) return; // one call per worker
    controller = new AbortController();
    const signal = sharedFlagSignal(controller, data.abortFlag);
    void run(endpoint, handler, data.input, { ...data.context, signal, workerData: data.workerData });
  });
  endpoint.post({ protocol: TOOL_WORKER_PROTOCOL, kind: 'ready' });
}

async function run(
  endpoint: ToolWorkerEndpoint,
  handler: ToolWorkerHandler,
  input: ToolObject,
  ctx: ToolWorkerContext,
): Promise<void> {
  let output: ToolObject;
  try {
    output = await handler(input, ctx);
  } catch (error) {
    endpoint.post({ protocol: TOOL_WORKER_PROTOCOL, kind: 'error', error: toWireError(error) });
    return;
  }
  // Never throws: a getter that throws while the output is read is the problem found there.
  const problem = findNonPlainData(output, 'output');
  if (problem) {
    const message = nonPlainOutputMessage(ctx.name, problem);
    const cause = 'thrown' in problem ? toWireError(problem.thrown) : undefined;
    endpoint.post({
      protocol: TOOL_WORKER_PROTOCOL,
      kind: 'error',
      error: { name: 'ToolWorkerDataError', message, dataPath: problem.path, cause },
    });
    return;
  }
  try {
    endpoint.post({ protocol: TOOL_WORKER_PROTOCOL, kind: 'result', output });
  } catch (error) {
    // Plain data always clones; this guards against a runtime that refuses it anyway.
    endpoint.post({ protocol: TOOL_WORKER_PROTOCOL, kind: 'error', error: toWireError(error) });
  }
}

const abortedGetter = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get;
const reasonGetter = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'reason')?.get;

/**
 * The controller's signal, made to read the host's shared abort flag whenever it is asked: a
 * handler that computes without awaiting never receives the host's `abort` message, but it can
 * still read `signal.aborted` (or call `signal.throwIfAborted()`) and stop.
 */
function sharedFlagSignal(controller: AbortController, flag: SharedArrayBuffer | undefined): AbortSignal {
  const signal = controller.signal;
  if (flag === undefined || abortedGetter === undefined || reasonGetter === undefined) return signal;
  const view = new Int32Array(flag);
  const poll = (): void => {
    const state = Atomics.load(view, 0);
    if (state === ABORT_FLAG.RUNNING || abortedGetter.call(signal)) return;
    controller.abort(
      state === ABORT_FLAG.TIMED_OUT
        ? wireReason('ToolWorkerTimeoutError', 'The tool handler ran past its time limit')
        : wireReason('AbortError', 'The tool call was aborted or lost'),
    );
  };
  Object.defineProperties(signal, {
    aborted: {
      configurable: true,
      get: () => {
        poll();
        return abortedGetter.call(signal);
      },
    },
    reason: {
      configurable: true,
      get: () => {
        poll();
        return reasonGetter.call(signal);
      },
    },
    throwIfAborted: {
      configurable: true,
      value: () => {
        poll();
        AbortSignal.prototype.throwIfAborted.call(signal);
      },
    },
  });
  return signal;
}

function wireReason(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
