import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createStdioTransport } from '#stdio-support';
import type { ProviderConfig } from './provider-config.js';
import { SDK_TIMEOUT_MS } from './sdk-timeout.js';

/** An open connection to one provider. */
export interface ProviderConnection {
  client: Client;
  /** Closes the client, and the in-process server if there is one. */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'parley-gateway', version: '0.1.0' };

/**
 * Opens an MCP client to a provider. In-process servers get a linked in-memory transport pair; stdio
 * and HTTP transports are imported on demand so that only the transports used are loaded (stdio needs
 * Node: `#stdio-support` resolves to a variant that refuses it in a browser). The gateway imports this
 * module (and the MCP SDK with it) on first use. `signal` bounds the MCP initialization handshake.
 */
export async function connectProvider(
  config: ProviderConfig,
  options: { signal: AbortSignal; onClose: () => void },
): Promise<ProviderConnection> {
  let server: McpServer | undefined;
  let transport: Transport;
  let isSessionExpired: (error: Error) => boolean = () => false;
  if ('server' in config) {
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    server = await config.server();
    await server.connect(serverSide);
    transport = clientSide;
  } else if ('stdio' in config) {
    transport = await createStdioTransport(config.stdio);
  } else if ('url' in config) {
    const { StreamableHTTPClientTransport, StreamableHTTPError } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const http = new StreamableHTTPClientTransport(new URL(config.url), {
      ...(config.headers === undefined ? {} : { requestInit: { headers: config.headers } }),
    });
    // A 404 to a request carrying a session id: the server no longer knows the session (it restarted
    // or expired it). The spec says to start a new session, so this connection is closed and the
    // gateway opens a fresh one on the next use instead of failing every call from now on.
    isSessionExpired = (error) =>
      error instanceof StreamableHTTPError && error.code === 404 && http.sessionId !== undefined;
    transport = http;
  } else {
    transport = await config.transport();
  }

  const client = new Client(CLIENT_INFO, { capabilities: {} });
  const close = async () => {
    await client.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
  };
  try {
    // The gateway's clock bounds the handshake through `signal`; the SDK's own timer is pushed out of the way.
    await client.connect(transport, { signal: options.signal, timeout: SDK_TIMEOUT_MS });
  } catch (error) {
    await close();
    throw error;
  }
  client.onclose = options.onClose;
  client.onerror = (error) => {
    if (isSessionExpired(error)) void close();
  };
  return { client, close };
}
