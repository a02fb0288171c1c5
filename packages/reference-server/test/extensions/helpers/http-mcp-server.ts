import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** Tickets the `lookup_ticket` tool knows. */
export const TICKETS: Readonly<Record<string, { id: string; title: string; status: string }>> = {
  'T-1': { id: 'T-1', title: 'Printer on fire', status: 'open' },
  'T-2': { id: 'T-2', title: 'Password reset', status: 'closed' },
};

/** A real MCP server on a local port, reached over streamable HTTP. */
export interface HttpMcpServer {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  port: number;
  /** Headers of every HTTP request the server received, in order. */
  requests: { method: string; headers: IncomingHttpHeaders }[];
  /** MCP sessions initialized (one per gateway connection). */
  sessions: number;
  /** HTTP responses still open (e.g. the client's GET event stream). */
  openResponses: number;
  /** Tool calls the server ran, in order. */
  calls: { tool: string; args: unknown }[];
  /** Drops every MCP session, as a restarted server would: their ids are then answered with 404. */
  forgetSessions(): Promise<void>;
  close(): Promise<void>;
}

function ticketServer(probe: HttpMcpServer): McpServer {
  const server = new McpServer({ name: 'tickets-http', version: '1.0.0' });
  server.registerTool(
    'lookup_ticket',
    {
      description: 'Looks a ticket up by id.',
      inputSchema: { id: z.string() },
      outputSchema: { id: z.string(), title: z.string(), status: z.string() },
    },
    async ({ id }) => {
      probe.calls.push({ tool: 'lookup_ticket', args: { id } });
      const ticket = TICKETS[id];
      if (ticket === undefined) throw new Error(`No ticket ${id}`);
      return { content: [{ type: 'text', text: JSON.stringify(ticket) }], structuredContent: ticket };
    },
  );
  server.registerTool(
    'close_ticket',
    { description: 'Always fails: the ticket system is read-only.', inputSchema: { id: z.string() } },
    async ({ id }) => {
      probe.calls.push({ tool: 'close_ticket', args: { id } });
      throw new Error(`Ticket ${id} cannot be closed: the ticket system is read-only`);
    },
  );
  return server;
}

/**
 * Starts an MCP server over streamable HTTP (stateful: one `StreamableHTTPServerTransport` per MCP
 * session, keyed by `mcp-session-id`, as the SDK's `simpleStreamableHttp` example does) on
 * 127.0.0.1, on `port` (0: any free port). Records request headers and tool calls.
 */
export async function startHttpMcpServer(port = 0): Promise<HttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const mcpServers: McpServer[] = [];
  const httpServer: Server = createServer((req, res) => {
    probe.requests.push({ method: req.method ?? '', headers: req.headers });
    probe.openResponses += 1;
    res.on('close', () => {
      probe.openResponses -= 1;
    });
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing !== undefined) {
      void existing.handleRequest(req, res);
      return;
    }
    if (sessionId !== undefined || req.method !== 'POST') {
      res.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No such session' }, id: null }),
      );
      return;
    }
    // A new session: the transport answers the initialize request (and refuses anything else).
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        probe.sessions += 1;
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    const mcp = ticketServer(probe);
    mcpServers.push(mcp);
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const actualPort = (httpServer.address() as AddressInfo).port;
  const probe: HttpMcpServer = {
    url: `http://127.0.0.1:${actualPort}/mcp`,
    port: actualPort,
    requests: [],
    sessions: 0,
    openResponses: 0,
    calls: [],
    async forgetSessions() {
      transports.clear();
      await Promise.all(mcpServers.splice(0).map((s) => s.close().catch(() => undefined)));
    },
    async close() {
      await probe.forgetSessions();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
  return probe;
}

/** A local port where nothing listens (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
