import type { Clock } from '../../time/clock.js';
import type { ErpData } from './erp/erp-data.js';
import { ERP_PROVIDER } from './erp/erp-names.js';
import type { InProcessProviderConfig } from './provider-config.js';

/**
 * The built-in `erp` provider, run in-process. Each provider config (so each reference server) holds
 * one copy of the data (a fresh copy of the demo data set unless `data` is given): every MCP server
 * it makes works on that copy, so the gateway's connection and the clients served over HTTP
 * (`/mcp/erp`) see the same customers, stock and orders. New orders are stamped with `clock` time.
 * The server and its data (and the MCP SDK with them) are imported when the provider is first used.
 * `reset()` (a full `server.reset()`) puts the data back as it was when first used, in place, so
 * open connections see it at once (a copy is kept for that: `data` must be plain, cloneable data).
 */
export function erpProvider(
  options: { clock?: Clock; name?: string; data?: ErpData } = {},
): InProcessProviderConfig {
  const { clock } = options;
  let data: Promise<ErpData> | undefined;
  /** The shared copy and what it held when first used (for reset). */
  let loaded: { data: ErpData; start: ErpData } | undefined;
  return {
    name: options.name ?? ERP_PROVIDER,
    server: async () => {
      // Set before the first await: servers made at the same time share one copy.
      data ??= (
        options.data
          ? Promise.resolve(options.data)
          : import('./erp/erp-data.js').then((m) => m.erpSeedData())
      ).then((shared) => {
        loaded = { data: shared, start: structuredClone(shared) };
        return shared;
      });
      const [{ erpServer }, shared] = await Promise.all([import('./erp/erp-server.js'), data]);
      return erpServer(clock === undefined ? { data: shared } : { data: shared, now: () => clock.now() });
    },
    reset: () => {
      // The servers hold the shared object and read its lists on every call.
      if (loaded !== undefined) Object.assign(loaded.data, structuredClone(loaded.start));
    },
  };
}
