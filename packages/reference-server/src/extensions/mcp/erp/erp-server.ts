import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {
  type ErpData,
  erpSeedData,
  type Invoice,
  lineTotal,
  type Order,
  type OrderLine,
} from './erp-data.js';
import { ERP_OUTPUT_SCHEMAS } from './erp-output-schemas.js';

export interface ErpServerOptions {
  /** Time source for new orders, Unix ms (defaults to `Date.now`). */
  now?: () => number;
  /** Initial data (a fresh copy of the demo data set by default). The server mutates it. */
  data?: ErpData;
}

const DAY_MS = 86_400_000;
const PAYMENT_TERMS_DAYS = 30;

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

type ErpOutputs = typeof ERP_OUTPUT_SCHEMAS;
/** A success: `structuredContent` typed by the tool's output schema, and the same JSON as text. */
const ok = <T extends keyof ErpOutputs>(_tool: T, value: z.output<ErpOutputs[T]>): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});
const fail = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

const customerId = z.string().describe('Customer id, e.g. "C-1001"');
const orderId = z.string().describe('Order id, e.g. "O-5001"');

/**
 * The built-in ERP provider: a real MCP server over a small, coherent data set (customers, products
 * and stock, orders, invoices). Read tools look data up; `create_order` and `cancel_order` change
 * stock, orders and invoices of this server instance. Inputs are validated by the tools' zod schemas,
 * so bad input is an error result that names the field. Loaded on first use: see `createErpServer`.
 */
export function erpServer(options: ErpServerOptions = {}): McpServer {
  const data = options.data ?? erpSeedData();
  const now = options.now ?? Date.now;
  const server = new McpServer({ name: 'parley-erp', version: '0.1.0' });

  const customer = (id: string) => data.customers.find((c) => c.customerId === id);
  const balance = (id: string) => {
    const unpaid = data.invoices.filter((i) => i.customerId === id);
    const sum = (status: Invoice['status']) =>
      Math.round(unpaid.filter((i) => i.status === status).reduce((s, i) => s + i.amount, 0) * 100) / 100;
    return { open: sum('open'), overdue: sum('overdue') };
  };

  server.registerTool(
    'find_customers',
    {
      description:
        'Find customers by part of their name and/or by country code. Without arguments, lists all.',
      inputSchema: {
        name: z.string().min(1).optional().describe('Part of the name, case-insensitive'),
        country: z.string().length(2).optional().describe('ISO country code, e.g. "DE"'),
      },
      outputSchema: ERP_OUTPUT_SCHEMAS.find_customers,
    },
    async ({ name, country }) => {
      const customers = data.customers.filter(
        (c) =>
          (name === undefined || c.name.toLowerCase().includes(name.toLowerCase())) &&
          (country === undefined || c.country === country.toUpperCase()),
      );
      return ok('find_customers', { customers });
    },
  );

  server.registerTool(
    'get_customer',
    {
      description: 'A customer with its credit limit and unpaid balance (open and overdue invoices, EUR).',
      inputSchema: { customerId },
      outputSchema: ERP_OUTPUT_SCHEMAS.get_customer,
    },
    async ({ customerId }) => {
      const found = customer(customerId);
      if (found === undefined) return fail(`No customer ${customerId}`);
      return ok('get_customer', { customer: found, balance: balance(customerId) });
    },
  );

  server.registerTool(
    'list_orders',
    {
      description: "A customer's orders, newest first, optionally only those with one status.",
      inputSchema: {
        customerId,
        status: z.enum(['open', 'shipped', 'delivered', 'cancelled']).optional(),
      },
      outputSchema: ERP_OUTPUT_SCHEMAS.list_orders,
    },
    async ({ customerId, status }) => {
      if (customer(customerId) === undefined) return fail(`No customer ${customerId}`);
      const orders = data.orders
        .filter((o) => o.customerId === customerId && (status === undefined || o.status === status))
        .sort((a, b) => b.orderedAt.localeCompare(a.orderedAt));
      return ok('list_orders', { orders });
    },
  );

  server.registerTool(
    'get_order',
    {
      description: 'One order with its lines and invoice id.',
      inputSchema: { orderId },
      outputSchema: ERP_OUTPUT_SCHEMAS.get_order,
    },
    async ({ orderId }) => {
      const found = data.orders.find((o) => o.orderId === orderId);
      return found === undefined ? fail(`No order ${orderId}`) : ok('get_order', { order: found });
    },
  );

  server.registerTool(
    'get_invoice',
    {
      description: 'One invoice: amount (EUR), due date and status (open, paid, overdue, void).',
      inputSchema: { invoiceId: z.string().describe('Invoice id, e.g. "I-9001"') },
      outputSchema: ERP_OUTPUT_SCHEMAS.get_invoice,
    },
    async ({ invoiceId }) => {
      const found = data.invoices.find((i) => i.invoiceId === invoiceId);
      return found === undefined ? fail(`No invoice ${invoiceId}`) : ok('get_invoice', { invoice: found });
    },
  );

  server.registerTool(
    'list_products',
    {
      description: 'Every product with unit price (EUR) and units in stock.',
      inputSchema: {},
      outputSchema: ERP_OUTPUT_SCHEMAS.list_products,
    },
    async () => ok('list_products', { products: data.products }),
  );

  server.registerTool(
    'check_stock',
    {
      description: 'Units in stock of one product, and whether a quantity is available.',
      inputSchema: {
        sku: z.string().describe('Product SKU, e.g. "SKU-100"'),
        quantity: z.number().int().min(1).optional().describe('Units wanted (default 1)'),
      },
      outputSchema: ERP_OUTPUT_SCHEMAS.check_stock,
    },
    async ({ sku, quantity = 1 }) => {
      const product = data.products.find((p) => p.sku === sku);
      if (product === undefined) return fail(`No product ${sku}`);
      return ok('check_stock', {
        sku,
        name: product.name,
        inStock: product.inStock,
        available: product.inStock >= quantity,
      });
    },
  );

  server.registerTool(
    'create_order',
    {
      description:
        'Places an order: takes the units out of stock and issues an open invoice due in 30 days. Fails when a ' +
        'product is short or the unpaid balance would exceed the credit limit.',
      inputSchema: {
        customerId,
        lines: z
          .array(z.strictObject({ sku: z.string(), quantity: z.number().int().min(1).max(10_000) }))
          .min(1)
          .max(20),
      },
      outputSchema: ERP_OUTPUT_SCHEMAS.create_order,
    },
    async ({ customerId, lines }) => {
      const buyer = customer(customerId);
      if (buyer === undefined) return fail(`No customer ${customerId}`);
      const wanted = new Map<string, number>();
      for (const line of lines) wanted.set(line.sku, (wanted.get(line.sku) ?? 0) + line.quantity);
      const orderLines: OrderLine[] = [];
      for (const [sku, quantity] of wanted) {
        const product = data.products.find((p) => p.sku === sku);
        if (product === undefined) return fail(`No product ${sku}`);
        if (product.inStock < quantity) {
          return fail(`Not enough ${sku} (${product.name}): ${quantity} wanted, ${product.inStock} in stock`);
        }
        orderLines.push({ sku, quantity, unitPrice: product.unitPrice });
      }
      const total = lineTotal(orderLines);
      const { open, overdue } = balance(customerId);
      if (open + overdue + total > buyer.creditLimit) {
        return fail(
          `Credit limit of ${buyer.name} exceeded: ${open + overdue} EUR unpaid + ${total} EUR > ${buyer.creditLimit} EUR`,
        );
      }
      for (const line of orderLines) {
        const product = data.products.find((p) => p.sku === line.sku);
        if (product !== undefined) product.inStock -= line.quantity;
      }
      const at = now();
      const order: Order = {
        orderId: nextId(
          'O-',
          data.orders.map((o) => o.orderId),
        ),
        customerId,
        orderedAt: new Date(at).toISOString(),
        status: 'open',
        lines: orderLines,
        total,
        invoiceId: nextId(
          'I-',
          data.invoices.map((i) => i.invoiceId),
        ),
      };
      const invoice: Invoice = {
        invoiceId: order.invoiceId,
        orderId: order.orderId,
        customerId,
        amount: total,
        dueDate: new Date(at + PAYMENT_TERMS_DAYS * DAY_MS).toISOString().slice(0, 10),
        status: 'open',
      };
      data.orders.push(order);
      data.invoices.push(invoice);
      return ok('create_order', { order, invoice });
    },
  );

  server.registerTool(
    'cancel_order',
    {
      description: 'Cancels an open order: puts its units back in stock and voids its invoice.',
      inputSchema: { orderId },
      outputSchema: ERP_OUTPUT_SCHEMAS.cancel_order,
    },
    async ({ orderId }) => {
      const found = data.orders.find((o) => o.orderId === orderId);
      if (found === undefined) return fail(`No order ${orderId}`);
      if (found.status !== 'open')
        return fail(`Order ${orderId} is ${found.status}; only open orders can be cancelled`);
      found.status = 'cancelled';
      for (const line of found.lines) {
        const product = data.products.find((p) => p.sku === line.sku);
        if (product !== undefined) product.inStock += line.quantity;
      }
      const invoice = data.invoices.find((i) => i.invoiceId === found.invoiceId);
      if (invoice !== undefined) invoice.status = 'void';
      return ok('cancel_order', { order: found, ...(invoice === undefined ? {} : { invoice }) });
    },
  );

  return server;
}

function nextId(prefix: string, existing: readonly string[]): string {
  const max = Math.max(0, ...existing.map((id) => Number(id.slice(prefix.length))).filter(Number.isFinite));
  return `${prefix}${max + 1}`;
}
