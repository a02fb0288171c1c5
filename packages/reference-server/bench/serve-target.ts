// A server under load, in a child process of the bench so that the load generator does not share
// its thread: `bare` (node:http), `hono` (the minimal Hono app on @hono/node-server), `bare-hop` (a
// bare forwarding proxy to BENCH_UPSTREAM) or `reference` (startServer with its defaults; with
// BENCH_LATENCY_MS, each request waits that long before the server sees it, as over a network). It tells the
// parent its URL over IPC, answers `reset` (sessions dropped) and `cpu` (its process.cpuUsage()).
// No forced GC between runs: a full GC throws away optimized code, and the next run starts cold.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createReferenceServer } from '@parley/reference-server';
import { startServer } from '@parley/reference-server/node';
import { createBareHop } from './bare-hop.js';
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
} else if (kind === 'bare-hop') {
  const hop = createBareHop(process.env.BENCH_UPSTREAM ?? '');
  hop.listen(0, '127.0.0.1', () => {
    const { port } = hop.address() as AddressInfo;
    send({ url: `http://127.0.0.1:${port}` });
  });
  process.on('message', (message) => {
    if (message === 'reset') send('reset');
  });
} else {
  const options = { ...JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') };
  const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 0);
  let server: ReturnType<typeof createReferenceServer>;
  if (latencyMs > 0) {
    // The network's round trip stood in for by a timer before each request: the same for the load
    // generator asking directly and for a proxy asking on its behalf.
    server = createReferenceServer({ allowedHosts: [], ...options });
    const wait = () => new Promise((resolve) => setTimeout(resolve, latencyMs));
    serve(
      {
        fetch: async (request) => {
          await wait();
          // Not tied to the connection: the load generator leaving at the end of a run is not
          // the server's business here (served without startServer, it would log each one).
          const bodyless = request.method === 'GET' || request.method === 'HEAD';
          return server.fetch(
            new Request(request.url, {
              method: request.method,
              headers: request.headers,
              ...(bodyless ? {} : { body: await request.arrayBuffer() }),
            }),
          );
        },
        port: 0,
        hostname: '127.0.0.1',
        overrideGlobalObjects: false,
      },
      (info) => send({ url: `http://127.0.0.1:${info.port}` }),
    );
  } else {
    const running = await startServer({ port: 0, ...options });
    server = running.server;
    send({ url: running.url });
  }
  const script = process.env.BENCH_SCRIPT;
  if (script !== undefined) server.script(JSON.parse(script));
  process.on('message', (message) => {
    if (message === 'reset') {
      server.reset();
      if (script !== undefined) server.script(JSON.parse(script));
      send('reset');
    }
  });
}
process.on('message', (message) => {
  if (message === 'cpu') send(process.cpuUsage());
});
process.on('disconnect', () => process.exit(0));
