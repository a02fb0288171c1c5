import { DEFAULT_ABORT_GRACE_MS } from '../../core/defaults.js';
import { ToolWorkerDataError, ToolWorkerError, ToolWorkerTimeoutError } from '../../errors/index.js';
import type { ToolContext } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
import { findNonPlainData } from './plain-data.js';
import { readWorkerMessage } from './read-worker-message.js';
import {
  ABORT_FLAG,
  type HostMessage,
  nonPlainOutputMessage,
  TOOL_WORKER_PROTOCOL,
  toWireError,
  type WireError,
} from './tool-worker-messages.js';

export interface WorkerHandlerOptions {
  /**
   * Stop the handler after it has run this long (counted from when the call reaches the started
   * worker, so start-up time is not included): its
   * worker is terminated and the call fails with a `ToolWorkerTimeoutError`, reported to the model
   * as a tool error. Default: no limit of its own (the call's deadline still applies: the server
   * answers the heartbeat with 409, the call is lost and the worker terminated).
   */
  timeoutMs?: number | undefined;
  /**
   * After an abort or a timeout, how long the handler may take to stop on its own (it sees its
   * `signal` abort) before its worker is terminated. Default `defaults.tools.abortGraceMs` (100 ms).
   */
  abortGraceMs?: number | undefined;
  /** Given to the handler as `ctx.workerData` (structured-cloned; a `SharedArrayBuffer` stays shared). */
  workerData?: unknown;
  /** Node only: the worker's `execArgv`, e.g. a loader for TypeScript worker modules. */
  execArgv?: readonly string[] | undefined;
  /** The worker's name (shows in debuggers). Default `parley-tool:<tool name>`. */
  name?: string | undefined;
  /** Called once the worker of a call has exited (for logging and metrics). */
  onExit?: ((exit: ToolWorkerExit) => void) | undefined;
}

/** How the worker of one call ended. */
export interface ToolWorkerExit {
  requestId: string;
  /**
   * `done`: the handler returned or threw. `aborted`: the call's signal aborted (lost call, aborted
   * run). `timed_out`: `timeoutMs` passed. `failed`: the worker failed, exited on its own, or sent
   * a malformed message (then it was terminated).
   */
  reason: 'done' | 'aborted' | 'timed_out' | 'failed';
  /** Whether the handler was still running when its worker was terminated. */
  terminated: boolean;
}

/** The events a runtime adapter forwards from its worker. */
export interface ToolWorkerEvents {
  message(data: unknown): void;
  error(error: unknown): void;
  /** The worker is gone; `code` where the runtime reports one. */
  exit(code: number | undefined): void;
}

/** A started worker, as the runtime adapter exposes it. */
export interface SpawnedToolWorker {
  post(message: HostMessage): void;
  /** Stops the worker; the adapter calls `events.exit` once it is gone. */
  terminate(): Promise<void>;
}

/** Starts a worker on a runtime (Node `worker_threads`, a Web Worker). */
export type ToolWorkerSpawner = (
  module: string | URL,
  options: { name: string; execArgv: readonly string[] | undefined },
  events: ToolWorkerEvents,
) => SpawnedToolWorker;

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
  const { timeoutMs, abortGraceMs = DEFAULT_ABORT_GRACE_MS } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(
      `workerHandler: timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`,
    );
  }
  if (!(Number.isFinite(abortGraceMs) && abortGraceMs >= 0)) {
    throw new RangeError(`workerHandler: abortGraceMs must be a number >= 0, got ${abortGraceMs}`);
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
  const { signal } = ctx;
  signal.throwIfAborted();
  const problem = findNonPlainData(input, 'input');
  if (problem) {
    throw new ToolWorkerDataError(
      `Tool "${ctx.name}": its parsed input cannot be sent to its worker: ${problem.path} is ${problem.found}. ` +
        'An input schema for a tool worker must produce plain JSON data.',
      { path: problem.path },
    );
  }
  return new Promise<ToolObject>((resolve, reject) => {
    const flag = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(4) : undefined;
    let settled = false;
    let handlerRunning = true;
    let stopping = false;
    let exitReason: ToolWorkerExit['reason'] = 'done';
    let terminated = false;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;
    let worker: SpawnedToolWorker | undefined;
    let posted = false;

    const settle = (outcome: { output: ToolObject } | { error: unknown }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      signal.removeEventListener('abort', onAbort);
      if ('output' in outcome) resolve(outcome.output);
      else reject(outcome.error);
    };
    const shutdown = (): void => {
      clearTimeout(grace);
      if (stopping || worker === undefined) return;
      stopping = true;
      terminated = handlerRunning;
      worker.terminate().catch(() => {});
    };
    // Abort or timeout: the call fails at once; the handler gets a grace period to stop by itself.
    const stop = (reason: 'aborted' | 'timed_out', error: unknown): void => {
      if (settled) return;
      exitReason = reason;
      settle({ error });
      if (flag)
        Atomics.store(
          new Int32Array(flag),
          0,
          reason === 'aborted' ? ABORT_FLAG.ABORTED : ABORT_FLAG.TIMED_OUT,
        );
      try {
        worker?.post({ protocol: TOOL_WORKER_PROTOCOL, kind: 'abort', reason: toWireError(error) });
      } catch {
        // The worker may already be gone.
      }
      if (options.abortGraceMs === 0) shutdown();
      else grace = setTimeout(shutdown, options.abortGraceMs);
    };
    const onAbort = (): void => stop('aborted', signal.reason);

    // A message the host cannot trust: the call fails at once, naming what was wrong, and the
    // worker is terminated wherever its code is (it broke the protocol; nothing it does is awaited).
    const refuse = (problem: string, cause?: unknown): void => {
      if (!settled) exitReason = 'failed';
      settle({
        error: new ToolWorkerError(
          `Tool "${ctx.name}": its worker sent a malformed message (${problem}); the worker was stopped`,
          { cause },
        ),
      });
      shutdown();
    };
    const onMessage = (data: unknown): void => {
      const read = readWorkerMessage(data);
      if (read.kind === 'foreign') return;
      if (read.kind === 'malformed') {
        refuse(read.problem);
        return;
      }
      const message = read.message;
      if (message.kind === 'ready') {
        if (posted) refuse('a second "ready" message');
        else if (!settled) post();
        return;
      }
      if (!posted) {
        refuse(`a "${message.kind}" message before the call was sent to it`);
        return;
      }
      handlerRunning = false;
      if (message.kind === 'error') {
        settle({ error: fromWire(message.error) });
      } else {
        // serveToolHandler checks the output before posting it; a module posting on its own may
        // not, and structured clone keeps a Map or a Date, which JSON would turn into `{}` or text.
        const problem = findNonPlainData(message.output, 'output');
        settle(
          problem
            ? {
                error: new ToolWorkerDataError(nonPlainOutputMessage(ctx.name, problem), {
                  path: problem.path,
                }),
              }
            : { output: message.output },
        );
      }
      shutdown();
    };

    const events: ToolWorkerEvents = {
      message(data) {
        try {
          onMessage(data);
        } catch (error) {
          // Nothing thrown here may reach the runtime's event loop: it would end the host process.
          refuse(`it could not be read: ${error instanceof Error ? error.message : String(error)}`, error);
        }
      },
      error(error) {
        if (!settled) exitReason = 'failed';
        handlerRunning = false;
        const message = error instanceof Error ? error.message : String(error);
        settle({
          error: new ToolWorkerError(`Tool "${ctx.name}": its worker failed: ${message}`, { cause: error }),
        });
        shutdown();
      },
      exit(code) {
        clearTimeout(grace);
        if (!settled) {
          exitReason = 'failed';
          const how = code === undefined ? 'exited' : `exited with code ${code}`;
          settle({
            error: new ToolWorkerError(
              `Tool "${ctx.name}": its worker ${how} before returning a result (does the module call serveToolHandler?)`,
            ),
          });
        }
        try {
          options.onExit?.({ requestId: ctx.requestId, reason: exitReason, terminated });
        } catch {
          // A logging hook must not break the run.
        }
      },
    };
    const post = (): void => {
      const message: HostMessage = {
        protocol: TOOL_WORKER_PROTOCOL,
        kind: 'run',
        input,
        context: {
          sessionId: ctx.sessionId,
          requestId: ctx.requestId,
          name: ctx.name,
          rawInput: ctx.rawInput,
        },
        abortFlag: flag,
        workerData: options.workerData,
      };
      try {
        posted = true;
        worker?.post(message);
        startClock();
      } catch (error) {
        // Only workerData can fail to clone here: the input was checked above.
        handlerRunning = false;
        exitReason = 'failed';
        settle({
          error: new ToolWorkerDataError(
            `Tool "${ctx.name}": workerData cannot be sent to its worker: ${error instanceof Error ? error.message : String(error)}`,
            { path: 'workerData', cause: error },
          ),
        });
        shutdown();
      }
    };

    // The time limit is the handler's: it starts when the call reaches the ready worker.
    const startClock = (): void => {
      const limit = options.timeoutMs;
      if (limit === undefined) return;
      const error = new ToolWorkerTimeoutError(
        `Tool "${ctx.name}" ran past its ${limit} ms time limit and was stopped`,
        { timeoutMs: limit },
      );
      timeout = setTimeout(() => stop('timed_out', error), limit);
    };

    signal.addEventListener('abort', onAbort, { once: true });
    try {
      worker = spawn(
        module,
        { name: options.name ?? `parley-tool:${ctx.name}`, execArgv: options.execArgv },
        events,
      );
    } catch (error) {
      exitReason = 'failed';
      const message = error instanceof Error ? error.message : String(error);
      settle({
        error: new ToolWorkerError(`Tool "${ctx.name}": its worker could not start: ${message}`, {
          cause: error,
        }),
      });
    }
  });
}

function fromWire(error: WireError): ToolWorkerError {
  if (error.dataPath !== undefined) return new ToolWorkerDataError(error.message, { path: error.dataPath });
  return new ToolWorkerError(error.message, {
    thrown: { name: error.name, message: error.message, stack: error.stack },
  });
}
