import type { HostMessage } from './tool-worker-messages.js';

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
