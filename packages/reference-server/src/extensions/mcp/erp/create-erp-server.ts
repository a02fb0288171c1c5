import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ErpServerOptions } from './erp-server.js';

/**
 * The built-in ERP provider's MCP server (customers, products and stock, orders, invoices), for a
 * provider of your own or an MCP client in a test. Asynchronous because the server and the MCP SDK
 * are imported on the first call: importing the package does not load them.
 *
 * @example
 * const config: InProcessProviderConfig = { name: 'shop', server: () => createErpServer() };
 */
export async function createErpServer(options: ErpServerOptions = {}): Promise<McpServer> {
  const { erpServer } = await import('./erp-server.js');
  return erpServer(options);
}
