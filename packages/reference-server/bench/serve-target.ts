// A server under load, in a child process of the bench so that the load generator does not share
// its thread: `bare` (node:http), `hono` (the minimal Hono app on @hono/node-server) or `reference`
// (startServer with its defaults). It tells the
// parent its URL over IPC, answers `reset` (sessions dropped) and `cpu` (its process.cpuUsage()).
// No forced GC between runs: a full GC throws away optimized code, and the next run starts cold.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { startServer } from '@parley/reference-server/node';
import { createBareServer } from './bare-server.js';
import { minimalHonoApp } from './minimal-hono-app.js';

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
      send('reset');
    }
  });
} else if (kind === 'hono') {
  const { app, reset } = minimalHonoApp();
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false }, (info) => {
    send({ url: `http://127.0.0.1:${info.port}` });
  });
  process.on('message', (message) => {
    if (message === 'reset') {
      reset();
      send('reset');
    }
  });
} else {
  const running = await startServer({ port: 0, ...JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') });
  const script = process.env.BENCH_SCRIPT;
  if (script !== undefined) running.server.script(JSON.parse(script));
  send({ url: running.url });
  process.on('message', (message) => {
    if (message === 'reset') {
      running.server.reset();
      if (script !== undefined) running.server.script(JSON.parse(script));
      send('reset');
    }
  });
}
process.on('message', (message) => {
  if (message === 'cpu') send(process.cpuUsage());
});
process.on('disconnect', () => process.exit(0));
