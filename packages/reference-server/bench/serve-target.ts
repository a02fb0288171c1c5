// A server under load, in a child process of the bench so that the load generator does not share
// its thread: `bare` (node:http) or `reference` (startServer with its defaults). It tells the
// parent its URL over IPC, and answers `reset` (sessions dropped, then a GC when exposed).
import type { AddressInfo } from 'node:net';
import { startServer } from '@parley/reference-server/node';
import { createBareServer } from './bare-server.js';

const kind = process.argv[2];
const send = (message: unknown) => process.send?.(message);

if (kind === 'bare') {
  const bare = createBareServer();
  bare.server.listen(0, '127.0.0.1', () => {
    const { port } = bare.server.address() as AddressInfo;
    send({ url: `http://127.0.0.1:${port}` });
  });
  process.on('message', (message) => {
    if (message === 'reset') {
      bare.reset();
      globalThis.gc?.();
      send('reset');
    }
  });
} else {
  const running = await startServer({ port: 0 });
  send({ url: running.url });
  process.on('message', (message) => {
    if (message === 'reset') {
      running.server.reset();
      globalThis.gc?.();
      send('reset');
    }
  });
}
process.on('disconnect', () => process.exit(0));
