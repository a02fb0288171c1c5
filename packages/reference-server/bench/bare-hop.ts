// The floor of the proxy bench: a bare node:http forwarding proxy in front of the same upstream as
// the checking proxy. A keep-alive agent, the request piped up and the answer piped back, hop-by-hop
// header fields left out, no checks, no journal: what any proxy hop costs on this machine.
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';

/** Header fields that belong to one hop: never forwarded either way. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

function forwarded(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const fields: IncomingHttpHeaders = {};
  for (const name in headers) if (!HOP.has(name)) fields[name] = headers[name];
  return fields;
}

/** A bare forwarding proxy to `upstream` (an `http://host:port` URL). */
export function createBareHop(upstream: string): Server {
  const { hostname, port } = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  return createServer((req, res) => {
    const up = httpRequest(
      { hostname, port, path: req.url, method: req.method, headers: forwarded(req.headers), agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwarded(answer.headers));
        answer.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
}
