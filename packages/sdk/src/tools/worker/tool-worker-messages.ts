import type { ToolObject } from '../define/tool-schema.js';
import type { NonPlainData } from './plain-data.js';

/** Tags every message between a tool worker and its host, so unrelated messages are ignored. */
export const TOOL_WORKER_PROTOCOL = 'parley.tool-worker.1';

/** Values of the shared abort flag (an `Int32Array` over a `SharedArrayBuffer`, index 0). */
export const ABORT_FLAG = { RUNNING: 0, ABORTED: 1, TIMED_OUT: 2 } as const;

/** An error as it crosses the thread boundary: structured clone keeps no class, so it travels as data. */
export interface WireError {
  name: string;
  message: string;
  stack?: string | undefined;
  /** Set for a value that is not plain data: where in it the problem is. */
  dataPath?: string | undefined;
  /** What a getter threw while the value was read (with `dataPath`). */
  cause?: WireThrown | undefined;
}

/** A thrown value as data: what {@link toWireError} keeps of it. */
export type WireThrown = Pick<WireError, 'name' | 'message' | 'stack'>;

/** The call's identity, as the worker's handler sees it. */
export interface WorkerCallContext {
  sessionId: string;
  requestId: string;
  name: string;
  rawInput: ToolObject;
  attempt: number;
}

/** Host to worker. */
export type HostMessage =
  | {
      protocol: typeof TOOL_WORKER_PROTOCOL;
      kind: 'run';
      input: ToolObject;
      context: WorkerCallContext;
      /** Shared with the host: lets a handler that never awaits still see the abort. */
      abortFlag: SharedArrayBuffer | undefined;
      workerData: unknown;
    }
  | { protocol: typeof TOOL_WORKER_PROTOCOL; kind: 'abort'; reason: WireError };

/** Worker to host. */
export type WorkerMessage =
  | { protocol: typeof TOOL_WORKER_PROTOCOL; kind: 'ready' }
  | { protocol: typeof TOOL_WORKER_PROTOCOL; kind: 'result'; output: ToolObject }
  | { protocol: typeof TOOL_WORKER_PROTOCOL; kind: 'error'; error: WireError };

export function isToolWorkerMessage<T extends HostMessage | WorkerMessage>(value: unknown): value is T {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { protocol?: unknown }).protocol === TOOL_WORKER_PROTOCOL
  );
}

/**
 * Any thrown value as a {@link WireError}; the message keeps the handler's own words. Never throws:
 * an error whose own fields throw when read is sent as an error with an empty message.
 */
export function toWireError(error: unknown): WireThrown {
  try {
    if (error instanceof Error) {
      const { name, message, stack } = error;
      return {
        name: String(name),
        message: String(message),
        stack: typeof stack === 'string' ? stack : undefined,
      };
    }
  } catch {
    return { name: 'Error', message: '' };
  }
  return { name: 'Error', message: typeof error === 'string' ? error : '' };
}

/** What the model reads when a handler's output is not plain data, whichever thread found it. */
export function nonPlainOutputMessage(toolName: string, problem: NonPlainData): string {
  return (
    `Tool "${toolName}" returned output its worker cannot send back: ${problem.path} is ${problem.found}. ` +
    'A tool worker must return plain JSON data (objects, arrays, strings, numbers, booleans, null).'
  );
}
