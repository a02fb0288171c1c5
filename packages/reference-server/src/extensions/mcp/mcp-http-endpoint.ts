import { HttpError } from '../../http-error.js';
import type { Gateway } from './gateway.js';
import type { InProcessProviderConfig, ProviderConfig } from './provider-config.js';

/** Where a reference server serves its in-process providers over MCP: `/mcp/<provider>`. */
export const MCP_HTTP_PREFIX = '/mcp';

/** Options of {@link mcpHttpEndpoint}. */
export interface McpHttpEndpointOptions {
  /** The path prefix the endpoint answers under. Default {@link MCP_HTTP_PREFIX}. */
  prefix?: string;
  /** Larger request bodies are `413` (a JSON-RPC error, as the MCP SDK answers). Default 4 MiB. */
  maxBodyBytes?: number;
}

/** One HTTP request to the endpoint, answered with a web-standard response. */
export type McpHttpEndpoint = (request: Request) => Promise<Response>;

/**
 * Serves the gateway's in-process providers (the built-in `erp` and any `{ name, server }`) over MCP
 * streamable HTTP, one URL each: `POST /mcp/erp`. It uses the MCP SDK's web-standard server transport,
 * so it runs wherever `fetch` does (node:http, msw, an injected fetch). Stateless: each request gets a
 * fresh MCP server from the provider's factory (the built-in `erp` shares one data set across them),
 * answers in JSON and is closed; there is no MCP session id and no server-sent stream, so `GET` and
 * `DELETE` are `405`. Providers reached by stdio, URL or a custom transport are not served here.
 * Authentication is the caller's business: the reference server mounts this behind its bearer tokens.
 */
export function mcpHttpEndpoint(
  gateway: Pick<Gateway, 'names' | 'provider'>,
  options: McpHttpEndpointOptions = {},
): McpHttpEndpoint {
  const prefix = options.prefix ?? MCP_HTTP_PREFIX;
  const inProcess = (name: string) => {
    const config = gateway.provider(name);
    return config !== undefined && isInProcess(config) ? config : undefined;
  };
  return async (request) => {
    const path = new URL(request.url).pathname;
    const rest = path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1).replace(/\/$/, '') : '';
    const config = inProcess(rest);
    if (config === undefined) {
      const served = gateway.names.filter((name) => inProcess(name) !== undefined);
      return notFound(path, rest, prefix, served, gateway.provider(rest) !== undefined);
    }
    if (request.method !== 'POST') return methodNotAllowed();
    const { WebStandardStreamableHTTPServerTransport } = await loadTransport();
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      ...(options.maxBodyBytes === undefined ? {} : { maxRequestBodySize: options.maxBodyBytes }),
    });
    const server = await config.server();
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}

// Loaded on the first request, once: a bundle that never serves MCP over HTTP does not carry it.
let transportModule: Promise<typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')>;
function loadTransport() {
  transportModule ??= import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
  return transportModule;
}

function isInProcess(config: ProviderConfig): config is InProcessProviderConfig {
  return 'server' in config;
}

function notFound(path: string, name: string, prefix: string, served: string[], registered: boolean) {
  const urls = served.length === 0 ? 'none' : served.map((s) => `${prefix}/${s}`).join(', ');
  const message = registered
    ? `Provider "${name}" is not served over HTTP: only in-process providers are (served: ${urls})`
    : `No MCP provider at ${path} (served: ${urls})`;
  return new HttpError('route_not_found', message, { details: { served } }).toResponse();
}

/** As the MCP SDK answers a method it does not serve: a JSON-RPC error without an id. */
function methodNotAllowed(): Response {
  const body = {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: this stateless MCP endpoint answers POST only' },
    id: null,
  };
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { allow: 'POST', 'content-type': 'application/json' },
  });
}
