export interface WorkerHandlerOptions {
  /**
   * Stop the call after this long, counted from when its worker is started (so a worker that loads
   * slowly, or a module that never calls `serveToolHandler`, is stopped at the limit too): its
   * worker is terminated and the call fails with a `ToolWorkerTimeoutError`, reported to the model
   * as a tool error (`Tool "x" ran past its 800 ms time limit and was stopped`). Default: no limit
   * of its own (the call's deadline still applies: the server answers the heartbeat with 409, the
   * call is lost and the worker terminated).
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
