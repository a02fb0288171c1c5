import type { Clock } from '../../time/clock.js';
import { type ErpData, erpSeedData } from './erp/erp-data.js';
import { createErpServer, ERP_PROVIDER } from './erp/erp-server.js';
import type { InProcessProviderConfig } from './provider-config.js';

/**
 * The built-in `erp` provider, run in-process. Each provider config (so each reference server) holds
 * one copy of the data (a fresh copy of the demo data set unless `data` is given): every MCP server
 * it makes works on that copy, so the gateway's connection and the clients served over HTTP
 * (`/mcp/erp`) see the same customers, stock and orders. New orders are stamped with `clock` time.
 */
export function erpProvider(
  options: { clock?: Clock; name?: string; data?: ErpData } = {},
): InProcessProviderConfig {
  const { clock } = options;
  const data = options.data ?? erpSeedData();
  return {
    name: options.name ?? ERP_PROVIDER,
    server: () => createErpServer(clock === undefined ? { data } : { data, now: () => clock.now() }),
  };
}
