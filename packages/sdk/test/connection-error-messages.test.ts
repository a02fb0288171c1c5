import { createServer } from 'node:net';
import { APIConnectionError, NotFoundError, Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { createMockFetch } from './helpers/mock-fetch.js';

/** A loopback port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a connection that fails says what failed and what to check', () => {
  it('a refused connection names ECONNREFUSED and suggests checking that the server runs at the base URL', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const client = new Parley({ baseUrl, token: 't', maxRetries: 0 });
    const error = await client.sessions.create().catch((e: unknown) => e);
    expect(error instanceof APIConnectionError).toBe(true);
    expect((error as Error).message).toBe(
      `Could not connect to the server: the connection was refused (ECONNREFUSED) (POST ${baseUrl}/v1/sessions). ` +
        `Check that the server runs at the base URL ${baseUrl}.`,
    );
  });

  it('an unknown cause keeps its own message', async () => {
    const mock = createMockFetch();
    mock.enqueue(new TypeError('fetch failed', { cause: new Error('something odd') }));
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 't',
      fetch: mock.fetch,
      maxRetries: 0,
    });
    const error = await client.sessions.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'Could not connect to the server: fetch failed (GET http://parley.test/v1/sessions). Check that the server runs at the base URL http://parley.test.',
    );
  });

  it('a reset connection is named, without the base-URL advice (the server was there)', async () => {
    const mock = createMockFetch();
    mock.enqueue(
      new TypeError('fetch failed', { cause: Object.assign(new Error('read'), { code: 'ECONNRESET' }) }),
    );
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 't',
      fetch: mock.fetch,
      maxRetries: 0,
    });
    const error = await client.sessions.list().catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'Could not connect to the server: the connection was reset (ECONNRESET) (GET http://parley.test/v1/sessions).',
    );
  });

  it('a base URL ending in /v1 gets a hint on a connection error and on a 404', async () => {
    const port = await closedPort();
    const refused = new Parley({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      token: 't',
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = await refused.sessions.create().catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      `The base URL ends in /v1, and the SDK adds /v1/... to every path: use http://127.0.0.1:${port} instead.`,
    );

    const mock = createMockFetch();
    mock.json(404, { error: { code: 'route_not_found', message: 'No route POST /v1/v1/sessions' } });
    const client = new Parley({
      baseUrl: 'http://parley.test/v1/',
      token: 't',
      fetch: mock.fetch,
      logLevel: 'off',
    });
    const notFound = await client.sessions.create().catch((e: unknown) => e);
    expect(notFound instanceof NotFoundError).toBe(true);
    expect((notFound as Error).message).toContain('use http://parley.test instead');
  });
});

describe('a redirect is refused with a clear error, never followed', () => {
  it.each([301, 302, 307, 308])(
    'a %i answer is an APIConnectionError that names the redirect and the base URL, sent once',
    async (status) => {
      const { createServer: createHttpServer } = await import('node:http');
      let requests = 0;
      const server = createHttpServer((_request, response) => {
        requests++;
        response.writeHead(status, { location: 'https://elsewhere.test/v1/sessions' });
        response.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        // GET is repeat-safe and would be retried after a connection error: a redirect is not.
        const client = new Parley({ baseUrl, token: 't', maxRetries: 2 });
        const error = await client.sessions.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(APIConnectionError);
        expect((error as Error).message).toBe(
          `The server answered with a redirect (GET ${baseUrl}/v1/sessions), which the SDK does not follow: ` +
            'set the base URL to where the service answers.',
        );
        expect(requests).toBe(1);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});
