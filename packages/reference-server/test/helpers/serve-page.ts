import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A static server on its own port for a page: `/` is `html`, other paths the given files;
 * `headers` on every answer (cross-origin isolation, say).
 */
export async function servePage(
  html: string,
  files: ReadonlyMap<string, { type: string; body: Uint8Array | string }>,
  headers: Record<string, string> = {},
): Promise<{ url: string; requested: string[]; close(): Promise<void> }> {
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    requested.push(path);
    const file = files.get(path);
    if (path === '/') res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(html);
    else if (file === undefined) res.writeHead(404, headers).end();
    else res.writeHead(200, { ...headers, 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
