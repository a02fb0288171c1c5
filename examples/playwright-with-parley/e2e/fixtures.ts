import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as parleyTest } from '@parley/reference-server/playwright';

/**
 * Parley's `test` (a reference server per worker, `parley` in every test, the page's requests to
 * http://parley.test routed to it) plus `app`: the site, served from public/ for the worker.
 */
export const test = parleyTest.extend<{}, { app: { url: string } }>({
  app: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter
    async ({}, use) => {
      const page = await readFile(new URL('../public/index.html', import.meta.url));
      const server = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(page),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      await use({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@parley/reference-server/playwright';
