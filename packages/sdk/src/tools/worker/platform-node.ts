import { parentPort, Worker } from 'node:worker_threads';
import type { ToolWorkerEndpoint } from './serve-tool-handler.js';
import type { ToolWorkerSpawner } from './tool-worker-spawner.js';

/** Starts a tool worker on a Node `worker_threads` thread. */
export const spawnToolWorker: ToolWorkerSpawner = (module, options, events) => {
  const worker = new Worker(module, {
    name: options.name,
    ...(options.execArgv ? { execArgv: [...options.execArgv] } : {}),
  });
  worker.on('message', events.message);
  worker.on('messageerror', events.error);
  worker.on('error', events.error);
  worker.on('exit', events.exit);
  return {
    post: (message) => worker.postMessage(message),
    terminate: async () => {
      await worker.terminate();
    },
  };
};

/** The worker thread's end of the channel: `parentPort`. */
export function toolWorkerEndpoint(): ToolWorkerEndpoint {
  const port = parentPort;
  if (port === null) {
    throw new Error(
      'serveToolHandler must run in a worker thread started by workerHandler, not on the main thread',
    );
  }
  return { post: (message) => port.postMessage(message), listen: (listener) => port.on('message', listener) };
}
