import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { connectSharedServer, SHARED_SERVER_HEALTH_TIMEOUT_MS } from '@parley/reference-server/node';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// A shared server that takes the connection and never answers (a hung process, a port another
// program holds): the health check of connectSharedServer must end, not hold the test run.
const sockets = new Set<Socket>();
const silent = createServer((socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.resume();
});
silent.listen(0, '127.0.0.1');
await once(silent, 'listening');
const address = silent.address();
const URL_OF_SILENT = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});
afterEach(() => {
  vi.useRealTimers();
});

/** Resolves once every connection to the silent server is closed. */
async function allClosed(): Promise<void> {
  await Promise.all([...sockets].map((socket) => once(socket, 'close')));
}

describe('connectSharedServer: the health check has a time limit (healthTimeoutMs)', () => {
  it('a server that takes the connection but never answers fails the check at the limit, naming its URL and the limit; the connection is closed', async () => {
    const connecting = connectSharedServer({
      baseUrl: URL_OF_SILENT,
      controlToken: 'token',
      healthTimeoutMs: 50,
    });
    await expect(connecting).rejects.toThrow(
      `connectSharedServer: the shared server at ${URL_OF_SILENT} (serverUrl or PARLEY_BASE_URL) did not ` +
        'answer GET /_parley/health within 50 ms (healthTimeoutMs)',
    );
    await allClosed();
    expect(sockets.size).toBe(0);
  });

  it(`the default limit is ${SHARED_SERVER_HEALTH_TIMEOUT_MS} ms`, async () => {
    expect(SHARED_SERVER_HEALTH_TIMEOUT_MS).toBe(10_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const connecting = connectSharedServer({
      baseUrl: 'http://shared.test',
      controlToken: 'token',
      fetch: () => new Promise<Response>(() => {}),
    });
    const settle = () => {
      settled = true;
    };
    connecting.then(settle, settle);
    await vi.advanceTimersByTimeAsync(SHARED_SERVER_HEALTH_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(connecting).rejects.toThrow(/within 10000 ms \(healthTimeoutMs\)/);
  });

  it('a given fetch that does not honour the abort signal still ends at the limit', async () => {
    const hanging = vi.fn(
      (_input: RequestInfo | URL, _init?: RequestInit) => new Promise<Response>(() => {}),
    );
    await expect(
      connectSharedServer({
        baseUrl: 'http://shared.test',
        controlToken: 'token',
        healthTimeoutMs: 20,
        fetch: hanging,
      }),
    ).rejects.toThrow('did not answer GET /_parley/health within 20 ms (healthTimeoutMs)');
    expect(hanging.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5000'])(
    'a limit that is not a positive number of ms (%s) is a TypeError naming healthTimeoutMs',
    async (value) => {
      await expect(
        connectSharedServer({
          baseUrl: URL_OF_SILENT,
          controlToken: 'token',
          healthTimeoutMs: value as number,
        }),
      ).rejects.toThrow(/^connectSharedServer: healthTimeoutMs must be a positive number of ms, got /);
    },
  );
});
