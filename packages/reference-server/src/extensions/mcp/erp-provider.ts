import type { Clock } from '../../time/clock.js';
import { ERP_PROVIDER } from './erp/erp-names.js';
import type { InProcessProviderConfig } from './provider-config.js';

/**
 * The built-in `erp` provider, run in-process. Each gateway (so each reference server) gets its own
 * ERP server with a fresh copy of the data, whose orders are stamped with `clock` time. The server
 * (and the MCP SDK with it) is imported when a session first uses the provider.
 */
export function erpProvider(options: { clock?: Clock; name?: string } = {}): InProcessProviderConfig {
  const { clock } = options;
  return {
    name: options.name ?? ERP_PROVIDER,
    server: async () => {
      const { createErpServer } = await import('./erp/erp-server.js');
      return createErpServer(clock === undefined ? {} : { now: () => clock.now() });
    },
  };
}
