import { CLASS_BRAND, ParleyError } from './parley-error.js';

/**
 * What the model reads when a handler runs past its time limit, on the main thread
 * (`defineTool({ timeoutMs })`, `runToolLoop({ toolTimeoutMs })`) or in a worker
 * (`workerHandler({ timeoutMs })`): one sentence for both, so a tool can move between them.
 */
export function toolTimeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool "${toolName}" ran past its ${timeoutMs} ms time limit and was stopped`;
}

/**
 * A tool handler on the main thread ran past its time limit (`defineTool({ timeoutMs })` or
 * `runToolLoop({ toolTimeoutMs })`): its `ctx.signal` aborted with this error, and `runTool`
 * reported the call to the model as an ERROR with its message. A handler in a worker past its
 * `workerHandler` limit is a `ToolWorkerTimeoutError`.
 */
export class ToolTimeoutError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolTimeoutError';
  override readonly name = 'ToolTimeoutError' as const;
  readonly timeoutMs: number;
  constructor(toolName: string, timeoutMs: number) {
    super(toolTimeoutMessage(toolName, timeoutMs));
    this.timeoutMs = timeoutMs;
  }
}
