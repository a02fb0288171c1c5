// A worker module that breaks the worker protocol: once it has the call, its handler posts, on its
// own port, the raw message `workerData` names and never returns (only terminate() ends it).
import { parentPort } from 'node:worker_threads';
import { serveToolHandler } from '@parley/sdk/worker';

const protocol = 'parley.tool-worker.1';

/** The messages by name; `ready-twice` says "ready" again, which the host must refuse too. */
export const MALFORMED = {
  'error-without-error': { protocol, kind: 'error' },
  'error-null': { protocol, kind: 'error', error: null },
  'error-message-number': { protocol, kind: 'error', error: { name: 'Error', message: 42 } },
  'unknown-kind': { protocol, kind: 'progress', percent: 50 },
  'no-kind': { protocol },
  'result-without-output': { protocol, kind: 'result' },
  'result-map': { protocol, kind: 'result', output: new Map([['a', 1]]) },
  'result-date-inside': { protocol, kind: 'result', output: { at: new Date(0) } },
  'ready-twice': { protocol, kind: 'ready' },
};

if (parentPort) {
  serveToolHandler(
    (_input, { workerData }) =>
      new Promise(() => {
        parentPort.postMessage({ unrelated: 'a message of some other library is ignored' });
        parentPort.postMessage(MALFORMED[workerData]);
      }),
  );
}
