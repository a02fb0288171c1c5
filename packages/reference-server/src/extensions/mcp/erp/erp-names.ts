// The ERP provider's names, apart from its server so that naming the provider (the catalogue, a
// config file) does not load the MCP SDK.

/** Name of the built-in ERP provider. */
export const ERP_PROVIDER = 'erp';

/** The ERP tools, for docs and tests. */
export const ERP_TOOL_NAMES = [
  'find_customers',
  'get_customer',
  'list_orders',
  'get_order',
  'get_invoice',
  'list_products',
  'check_stock',
  'create_order',
  'cancel_order',
] as const;
