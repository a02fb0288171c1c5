import type { Clock } from '../../time/clock.js';
import { createErpServer, ERP_PROVIDER } from './erp/erp-server.js';
import type { InProcessProviderConfig } from './provider-config.js';

/**
 * The built-in `erp` provider, run in-process. Each gateway (so each reference server) gets its own
 * ERP server with a fresh copy of the data, whose orders are stamped with `clock` time.
 */
export function erpProvider(options: { clock?: Clock; name?: string } = {}): InProcessProviderConfig {
  const { clock } = options;
  return {
    name: options.name ?? ERP_PROVIDER,
    server: () => createErpServer(clock === undefined ? {} : { now: () => clock.now() }),
  };
}
