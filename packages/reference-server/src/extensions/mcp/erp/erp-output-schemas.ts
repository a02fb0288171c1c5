import * as z from 'zod';
import type { Customer, Invoice, Order, OrderLine, Product } from './erp-data.js';

// The records of the ERP data set as zod schemas: the tools declare them as their MCP `outputSchema`,
// so a client sees the shape of `structuredContent` in `tools/list` and can validate every result.

const eur = (what: string) => z.number().describe(`${what}, EUR`);

const CustomerSchema = z.object({
  customerId: z.string().describe('e.g. "C-1001"'),
  name: z.string(),
  country: z.string().describe('ISO country code, e.g. "DE"'),
  email: z.string(),
  creditLimit: eur('Open and overdue invoices may not exceed it'),
}) satisfies z.ZodType<Customer>;

const ProductSchema = z.object({
  sku: z.string().describe('e.g. "SKU-100"'),
  name: z.string(),
  unitPrice: eur('Unit price'),
  inStock: z.number().int().describe('Units in the warehouse'),
}) satisfies z.ZodType<Product>;

const OrderLineSchema = z.object({
  sku: z.string(),
  quantity: z.number().int(),
  unitPrice: eur('Unit price when ordered'),
}) satisfies z.ZodType<OrderLine>;

const OrderSchema = z.object({
  orderId: z.string().describe('e.g. "O-5001"'),
  customerId: z.string(),
  orderedAt: z.string().describe('ISO date-time'),
  status: z.enum(['open', 'shipped', 'delivered', 'cancelled']),
  lines: z.array(OrderLineSchema),
  total: eur('Sum of the lines'),
  invoiceId: z.string(),
}) satisfies z.ZodType<Order>;

const InvoiceSchema = z.object({
  invoiceId: z.string().describe('e.g. "I-9001"'),
  orderId: z.string(),
  customerId: z.string(),
  amount: eur('Amount'),
  dueDate: z.string().describe('ISO date'),
  status: z.enum(['open', 'paid', 'overdue', 'void']),
}) satisfies z.ZodType<Invoice>;

/** The `outputSchema` of each ERP tool: what its `structuredContent` holds when it succeeds. */
export const ERP_OUTPUT_SCHEMAS = {
  find_customers: z.object({ customers: z.array(CustomerSchema) }),
  get_customer: z.object({
    customer: CustomerSchema,
    balance: z
      .object({ open: eur('Open invoices'), overdue: eur('Overdue invoices') })
      .describe('Unpaid invoices of the customer'),
  }),
  list_orders: z.object({ orders: z.array(OrderSchema).describe('Newest first') }),
  get_order: z.object({ order: OrderSchema }),
  get_invoice: z.object({ invoice: InvoiceSchema }),
  list_products: z.object({ products: z.array(ProductSchema) }),
  check_stock: z.object({
    sku: z.string(),
    name: z.string(),
    inStock: z.number().int(),
    available: z.boolean().describe('Whether the quantity asked for is in stock'),
  }),
  create_order: z.object({ order: OrderSchema, invoice: InvoiceSchema }),
  cancel_order: z.object({
    order: OrderSchema,
    invoice: InvoiceSchema.optional().describe('The voided invoice'),
  }),
} as const;
