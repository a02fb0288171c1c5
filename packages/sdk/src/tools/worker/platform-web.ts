import type { ToolWorkerEndpoint } from './serve-tool-handler.js';
import type { ToolWorkerSpawner } from './tool-worker-spawner.js';

/** Starts a tool worker as a module Web Worker (browsers, Deno, Bun). */
export const spawnToolWorker: ToolWorkerSpawner = (module, options, events) => {
  if (typeof Worker !== 'function') throw new Error('this runtime has no Web Worker (globalThis.Worker)');
  const worker = new Worker(module, { type: 'module', name: options.name });
  worker.addEventListener('message', (event) => events.message(event.data));
  worker.addEventListener('messageerror', () =>
    events.error(new Error('a message from the worker could not be read')),
  );
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    events.error(new Error(event.message || `the worker module ${String(module)} failed to load or threw`));
  });
  let gone = false;
  return {
    post: (message) => worker.postMessage(message),
    // A Web Worker stops at once and reports no exit: the adapter reports it.
    terminate: async () => {
      worker.terminate();
      if (gone) return;
      gone = true;
      events.exit(undefined);
    },
  };
};

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** The worker's end of the channel: its global scope. */
export function toolWorkerEndpoint(): ToolWorkerEndpoint {
  const scope = globalThis as unknown as WorkerScope & { WorkerGlobalScope?: unknown };
  const inWorker =
    typeof scope.WorkerGlobalScope === 'function' &&
    globalThis instanceof (scope.WorkerGlobalScope as typeof Object);
  if (!inWorker) {
    throw new Error('serveToolHandler must run in a Web Worker started by workerHandler, not on the page');
  }
  return {
    post: (message) => scope.postMessage(message),
    listen: (listener) => scope.addEventListener('message', (event) => listener(event.data)),
  };
}
