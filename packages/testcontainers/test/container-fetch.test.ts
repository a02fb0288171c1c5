import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectSharedServer } from '@parley/reference-server/node';
import { afterEach, describe, expect, it } from 'vitest';
import { containerFetch } from '../src/container-fetch.js';
import { ParleyContainerError } from '../src/parley-container-error.js';

// The container's fetch against a real socket in this process (no container engine needed): the
// container tests (container-test/) check the same against a stopped and a paused container.

const CONTAINER_ID = '0123456789abcdef0123';
const open: Server[] = [];
const held: ServerResponse[] = [];

async function listen(handler: (path: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => handler(req.url ?? '/', res));
  open.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const res of held.splice(0)) res.destroy();
  await Promise.all(
    open.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

describe("the started container's fetch", () => {
  it('a body cut off mid-stream rejects the read with a ParleyContainerError naming the container', async () => {
    const url = await listen((_path, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n', () => setImmediate(() => res.destroy()));
    });
    const response = await containerFetch({ containerId: CONTAINER_ID, timeoutMs: 5000 })(`${url}/v1/stream`);
    const read = response.text();
    await expect(read).rejects.toThrow(ParleyContainerError);
    await expect(read).rejects.toThrow(
      /reading the body of GET .*\/v1\/stream failed: the Parley container 0123456789ab did not answer/,
    );
  });

  it('a control call with no answer within timeoutMs fails, naming the wait; a caller abort stays an abort', async () => {
    const url = await listen((_path, res) => void held.push(res));
    const fetch = containerFetch({ containerId: CONTAINER_ID, timeoutMs: 50 });
    await expect(fetch(`${url}/_parley/journal`)).rejects.toThrow(
      /GET .*\/_parley\/journal failed: the Parley container 0123456789ab did not answer \(no answer within 50 ms\)/,
    );
    const caller = new AbortController();
    const aborted = fetch(`${url}/v1/sessions`, { method: 'POST', signal: caller.signal });
    caller.abort();
    const error = await aborted.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ParleyContainerError);
    expect((error as Error).name).toBe('AbortError');
  });

  it("connectSharedServer given it passes its errors on: a scope's call to a server gone is a ParleyContainerError", async () => {
    const url = await listen((path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(path === '/_parley/health' ? '{"status":"ok"}' : '{"entries":[]}');
    });
    const fetch = containerFetch({ containerId: CONTAINER_ID, timeoutMs: 5000 });
    const shared = await connectSharedServer({ baseUrl: url, controlToken: 'x'.repeat(16), fetch });
    const scope = shared.testScope('a > b');
    expect(await scope.journal()).toEqual([]);
    const server = open.pop() as Server;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await expect(scope.journal()).rejects.toThrow(ParleyContainerError);
    await expect(scope.journal()).rejects.toThrow(
      /the Parley container 0123456789ab did not answer \(ECONNREFUSED\)/,
    );
    // A handle call never turns "no server" into "no report".
    await expect(scope.proxyReport()).rejects.toThrow(ParleyContainerError);
    await expect(connectSharedServer({ baseUrl: url, controlToken: 'x'.repeat(16), fetch })).rejects.toThrow(
      ParleyContainerError,
    );
  });
});
