// A worker module that posts a result as it loads, before the host sent it any call.
import { parentPort } from 'node:worker_threads';

parentPort.postMessage({ protocol: 'parley.tool-worker.1', kind: 'result', output: { early: true } });
