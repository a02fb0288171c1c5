import { ToolWorkerDataError, ToolWorkerError, ToolWorkerTimeoutError } from '../../errors/index.js';
import { toolTimeoutMessage } from '../../errors/tool-timeout-error.js';
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
  type WorkerMessage,
} from './tool-worker-messages.js';
import type { SpawnedToolWorker, ToolWorkerSpawner } from './tool-worker-spawner.js';
import type { ToolWorkerExit, WorkerHandlerOptions } from './worker-handler-options.js';

type Timer = ReturnType<typeof setTimeout>;
type ExitReason = ToolWorkerExit['reason'];

/**
 * Where one call's worker is. Each event (a message, an abort, a timer, the worker's error or exit)
 * moves it on, and each phase holds what is still owed: the call is settled on leaving `starting`
 * or `running`, never later.
 */
type HostState =
  /** Spawned; the call is posted once the worker says it is ready. `timeoutMs` runs from here. */
  | { phase: 'starting'; clock: Timer | undefined }
  /** The call was posted and the handler runs, against `timeoutMs` when one is set. */
  | { phase: 'running'; clock: Timer | undefined }
  /**
   * Aborted or past `timeoutMs`: the call has failed; the handler may stop on its own within the
   * grace period, after which its worker is terminated.
   */
  | { phase: 'stopping'; reason: 'aborted' | 'timed_out'; posted: boolean; grace: Timer | undefined }
  /** Settled; the worker was told to terminate (`terminated`: before its handler had finished). */
  | { phase: 'terminating'; reason: ExitReason; terminated: boolean }
  /** The worker is gone (or never started); nothing more happens. */
  | { phase: 'exited' };

/**
 * The host's side of one tool call run in a worker, as a state machine: starts the worker, posts
 * the call when it is ready, settles {@link result} with its output or a `ToolWorkerError`, and
 * terminates the worker when the call is over, aborted, past its time limit, or when the worker
 * breaks the protocol (nothing a worker sends can take the host down).
 */
export class WorkerHost {
  /** The handler's output, or why the call failed. */
  readonly result: Promise<ToolObject>;
  readonly #options: WorkerHandlerOptions & { abortGraceMs: number };
  readonly #input: ToolObject;
  readonly #ctx: ToolContext;
  /** Shared with the worker: lets a handler that never awaits still see the abort. */
  readonly #flag = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(4) : undefined;
  #state: HostState = { phase: 'starting', clock: undefined };
  #worker: SpawnedToolWorker | undefined;
  #resolve!: (output: ToolObject) => void;
  #reject!: (error: unknown) => void;

  constructor(
    spawn: ToolWorkerSpawner,
    module: string | URL,
    options: WorkerHandlerOptions & { abortGraceMs: number },
    input: ToolObject,
    ctx: ToolContext,
  ) {
    this.#options = options;
    this.#input = input;
    this.#ctx = ctx;
    this.result = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    ctx.signal.addEventListener('abort', this.#onAbort, { once: true });
    // The time limit covers the worker's start: a module that never calls serveToolHandler (or
    // loads for too long) fails the call at the limit, not at the call's deadline.
    const limit = options.timeoutMs;
    if (limit !== undefined)
      this.#state = { phase: 'starting', clock: setTimeout(this.#timedOut, limit, limit) };
    try {
      this.#worker = spawn(
        module,
        { name: options.name ?? `parley-tool:${ctx.name}`, execArgv: options.execArgv },
        {
          message: (data) => this.#onMessage(data),
          error: (error) => this.#onError(error),
          exit: (code) => this.#onExit(code),
        },
      );
    } catch (error) {
      this.#settle({ error: this.#failure(`its worker could not start: ${describe(error)}`, error) });
      this.#state = { phase: 'exited' };
    }
  }

  #timedOut = (timeoutMs: number): void =>
    this.#stop(
      'timed_out',
      new ToolWorkerTimeoutError(toolTimeoutMessage(this.#ctx.name, timeoutMs), { timeoutMs }),
    );

  #onAbort = (): void => this.#stop('aborted', this.#ctx.signal.reason);

  #onMessage(data: unknown): void {
    try {
      this.#read(data);
    } catch (error) {
      // Nothing thrown here may reach the runtime's event loop: it would end the host process.
      this.#refuse(`it could not be read: ${describe(error)}`, error);
    }
  }

  #read(data: unknown): void {
    const state = this.#state;
    if (state.phase === 'terminating' || state.phase === 'exited') return;
    const read = readWorkerMessage(data);
    if (read.kind === 'foreign') return;
    if (read.kind === 'malformed') {
      this.#refuse(read.problem);
      return;
    }
    const message = read.message;
    const posted = state.phase === 'running' || (state.phase === 'stopping' && state.posted);
    if (message.kind === 'ready') {
      if (posted) this.#refuse('a second "ready" message');
      else if (state.phase === 'starting') this.#post();
      return;
    }
    if (!posted) {
      this.#refuse(`a "${message.kind}" message before the call was sent to it`);
      return;
    }
    if (state.phase === 'running') this.#settle(this.#outcome(message));
    this.#terminate('done', false);
  }

  #onError(error: unknown): void {
    const { phase } = this.#state;
    if (phase === 'terminating' || phase === 'exited') return;
    this.#settle({ error: this.#failure(`its worker failed: ${describe(error)}`, error) });
    this.#terminate('failed', false);
  }

  #onExit(code: number | undefined): void {
    const state = this.#state;
    if (state.phase === 'exited') return;
    this.#clearTimers();
    const how = code === undefined ? 'exited' : `exited with code ${code}`;
    this.#settle({
      error: this.#failure(
        `its worker ${how} before returning a result (does the module call serveToolHandler?)`,
      ),
    });
    const exit: ToolWorkerExit = {
      requestId: this.#ctx.requestId,
      reason: state.phase === 'stopping' || state.phase === 'terminating' ? state.reason : 'failed',
      terminated: state.phase === 'terminating' && state.terminated,
    };
    this.#state = { phase: 'exited' };
    try {
      this.#options.onExit?.(exit);
    } catch {
      // A logging hook must not break the run.
    }
  }

  #post(): void {
    const ctx = this.#ctx;
    const message: HostMessage = {
      protocol: TOOL_WORKER_PROTOCOL,
      kind: 'run',
      input: this.#input,
      context: {
        sessionId: ctx.sessionId,
        requestId: ctx.requestId,
        name: ctx.name,
        rawInput: ctx.rawInput,
        attempt: ctx.attempt,
      },
      abortFlag: this.#flag,
      workerData: this.#options.workerData,
    };
    try {
      this.#worker?.post(message);
    } catch (error) {
      // Only workerData can fail to clone here: the input was checked before the worker started.
      this.#settle({
        error: new ToolWorkerDataError(
          `Tool "${ctx.name}": workerData cannot be sent to its worker: ${describe(error)}`,
          { path: 'workerData', cause: error },
        ),
      });
      this.#terminate('failed', false);
      return;
    }
    // The clock armed at the start keeps running: the limit is the call's, start-up included.
    const clock = this.#state.phase === 'starting' ? this.#state.clock : undefined;
    this.#state = { phase: 'running', clock };
  }

  /** Abort or timeout: the call fails at once; the handler gets a grace period to stop by itself. */
  #stop(reason: 'aborted' | 'timed_out', error: unknown): void {
    const state = this.#state;
    if (state.phase !== 'starting' && state.phase !== 'running') return;
    this.#settle({ error });
    if (this.#flag) {
      Atomics.store(
        new Int32Array(this.#flag),
        0,
        reason === 'aborted' ? ABORT_FLAG.ABORTED : ABORT_FLAG.TIMED_OUT,
      );
    }
    try {
      this.#worker?.post({ protocol: TOOL_WORKER_PROTOCOL, kind: 'abort', reason: toWireError(error) });
    } catch {
      // The worker may already be gone.
    }
    const graceMs = this.#options.abortGraceMs;
    this.#state = {
      phase: 'stopping',
      reason,
      posted: state.phase === 'running',
      grace: graceMs === 0 ? undefined : setTimeout(() => this.#terminate(reason, true), graceMs),
    };
    if (graceMs === 0) this.#terminate(reason, true);
  }

  /**
   * A message the host cannot trust: the call fails at once, naming what was wrong, and the worker
   * is terminated wherever its code is (it broke the protocol; nothing it does is awaited).
   */
  #refuse(problem: string, cause?: unknown): void {
    this.#settle({
      error: this.#failure(`its worker sent a malformed message (${problem}); the worker was stopped`, cause),
    });
    this.#terminate('failed', true);
  }

  /**
   * Ends the worker. `reason` is why, unless the call was already stopping (an abort or a timeout
   * stays the reason); `handlerRunning`: whether its handler had yet to return or throw.
   */
  #terminate(reason: ExitReason, handlerRunning: boolean): void {
    const state = this.#state;
    if (state.phase === 'terminating' || state.phase === 'exited') return;
    this.#clearTimers();
    this.#state = {
      phase: 'terminating',
      reason: state.phase === 'stopping' ? state.reason : reason,
      terminated: handlerRunning,
    };
    this.#worker?.terminate().catch(() => {});
  }

  /** Resolves or rejects the call, once: only on leaving `starting` or `running`. */
  #settle(outcome: { output: ToolObject } | { error: unknown }): void {
    const state = this.#state;
    if (state.phase !== 'starting' && state.phase !== 'running') return;
    clearTimeout(state.clock);
    this.#ctx.signal.removeEventListener('abort', this.#onAbort);
    if ('output' in outcome) this.#resolve(outcome.output);
    else this.#reject(outcome.error);
  }

  #outcome(message: Exclude<WorkerMessage, { kind: 'ready' }>): { output: ToolObject } | { error: unknown } {
    if (message.kind === 'error') return { error: fromWire(message.error) };
    // serveToolHandler checks the output before posting it; a module posting on its own may not,
    // and structured clone keeps a Map or a Date, which JSON would turn into `{}` or text.
    const problem = findNonPlainData(message.output, 'output');
    if (!problem) return { output: message.output };
    return {
      error: new ToolWorkerDataError(nonPlainOutputMessage(this.#ctx.name, problem), { path: problem.path }),
    };
  }

  #failure(what: string, cause?: unknown): ToolWorkerError {
    return new ToolWorkerError(`Tool "${this.#ctx.name}": ${what}`, { cause });
  }

  #clearTimers(): void {
    const state = this.#state;
    if (state.phase === 'starting' || state.phase === 'running') clearTimeout(state.clock);
    if (state.phase === 'stopping') clearTimeout(state.grace);
  }
}

function fromWire(error: WireError): ToolWorkerError {
  // `cause`: what a getter threw while the output was read, as the handler's own error arrives.
  const cause = error.cause && fromWire(error.cause);
  if (error.dataPath !== undefined)
    return new ToolWorkerDataError(error.message, { path: error.dataPath, cause });
  return new ToolWorkerError(error.message, {
    thrown: { name: error.name, message: error.message, stack: error.stack },
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
