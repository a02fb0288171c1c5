import { createReferenceServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { MSW_MISSING_MESSAGE, startMswMode } from '../../src/adapters/msw-mode.js';

/** A module loader that fails as Node does when `specifier` is not installed. */
const missing = (specifier: string) => () =>
  Promise.reject(
    Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/node_modules/x.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    }),
  );

describe('msw mode loads msw, an optional peer dependency, only when it runs', () => {
  it('without msw installed it says what to install, and that HTTP mode does not need it', async () => {
    const server = createReferenceServer();
    const error = await startMswMode(server, 'http://parley.test', missing('msw')).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      "useReferenceServer({ mode: 'msw' }) needs msw, an optional peer dependency of @parley/reference-server: " +
        'install it (npm install --save-dev msw), or leave out mode to run the server over HTTP, which does not need msw',
    );
    expect((error as Error).message).toBe(MSW_MISSING_MESSAGE);
  });

  it('a package missing inside msw is reported as it is', async () => {
    const server = createReferenceServer();
    const error = await startMswMode(server, 'http://parley.test', missing('tough-cookie')).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toContain("Cannot find package 'tough-cookie'");
  });

  it('with msw installed it answers fetch calls to the base URL in process', async () => {
    const server = createReferenceServer();
    const mock = await startMswMode(server, 'http://msw-mode.test');
    try {
      const response = await fetch('http://msw-mode.test/healthz');
      expect(response.status).toBe(200);
    } finally {
      mock.close();
    }
  });
});
