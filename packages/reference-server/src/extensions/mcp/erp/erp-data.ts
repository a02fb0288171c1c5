/** A customer of the demo ERP. */
export interface Customer {
  customerId: string;
  name: string;
  country: string;
  email: string;
  /** Credit limit in EUR: open and overdue invoices may not exceed it. */
  creditLimit: number;
}

export interface Product {
  sku: string;
  name: string;
  /** Unit price in EUR. */
  unitPrice: number;
  /** Units in the warehouse. */
  inStock: number;
}

export interface OrderLine {
  sku: string;
  quantity: number;
  unitPrice: number;
}

export type OrderStatus = 'open' | 'shipped' | 'delivered' | 'cancelled';

export interface Order {
  orderId: string;
  customerId: string;
  /** ISO date-time. */
  orderedAt: string;
  status: OrderStatus;
  lines: OrderLine[];
  /** Sum of the lines, EUR. */
  total: number;
  invoiceId: string;
}

export type InvoiceStatus = 'open' | 'paid' | 'overdue' | 'void';

export interface Invoice {
  invoiceId: string;
  orderId: string;
  customerId: string;
  amount: number;
  /** ISO date. */
  dueDate: string;
  status: InvoiceStatus;
}

/** The whole state of one ERP server. */
export interface ErpData {
  customers: Customer[];
  products: Product[];
  orders: Order[];
  invoices: Invoice[];
}

/**
 * A fresh copy of the demo data set: 4 customers, 5 products, 6 orders, each order with its invoice.
 * Totals, balances and stock agree with each other.
 */
export function erpSeedData(): ErpData {
  return {
    customers: [
      {
        customerId: 'C-1001',
        name: 'Acme GmbH',
        country: 'DE',
        email: 'buying@acme.example',
        creditLimit: 5000,
      },
      {
        customerId: 'C-1002',
        name: 'Globex Ltd',
        country: 'GB',
        email: 'orders@globex.example',
        creditLimit: 2000,
      },
      {
        customerId: 'C-1003',
        name: 'Initech Inc',
        country: 'US',
        email: 'ap@initech.example',
        creditLimit: 10000,
      },
      {
        customerId: 'C-1004',
        name: 'Umbrella SA',
        country: 'FR',
        email: 'achats@umbrella.example',
        creditLimit: 1000,
      },
    ],
    products: [
      { sku: 'SKU-100', name: 'Widget', unitPrice: 12.5, inStock: 120 },
      { sku: 'SKU-200', name: 'Gadget', unitPrice: 49.9, inStock: 8 },
      { sku: 'SKU-300', name: 'Sprocket', unitPrice: 3.2, inStock: 0 },
      { sku: 'SKU-400', name: 'Gizmo Pro', unitPrice: 199, inStock: 15 },
      { sku: 'SKU-500', name: 'Cable set', unitPrice: 9.99, inStock: 300 },
    ],
    orders: [
      order('O-5001', 'C-1001', '2025-01-10T09:30:00.000Z', 'delivered', [['SKU-100', 10, 12.5]], 'I-9001'),
      order('O-5002', 'C-1001', '2025-03-02T14:05:00.000Z', 'shipped', [['SKU-200', 2, 49.9]], 'I-9002'),
      order('O-5003', 'C-1002', '2025-02-11T11:00:00.000Z', 'delivered', [['SKU-400', 1, 199]], 'I-9003'),
      order(
        'O-5004',
        'C-1003',
        '2025-03-15T08:45:00.000Z',
        'open',
        [
          ['SKU-500', 20, 9.99],
          ['SKU-100', 4, 12.5],
        ],
        'I-9004',
      ),
      order('O-5005', 'C-1003', '2024-12-20T16:20:00.000Z', 'cancelled', [['SKU-300', 100, 3.2]], 'I-9005'),
      order('O-5006', 'C-1004', '2025-03-01T10:10:00.000Z', 'delivered', [['SKU-400', 4, 199]], 'I-9006'),
    ],
    invoices: [
      {
        invoiceId: 'I-9001',
        orderId: 'O-5001',
        customerId: 'C-1001',
        amount: 125,
        dueDate: '2025-02-09',
        status: 'paid',
      },
      {
        invoiceId: 'I-9002',
        orderId: 'O-5002',
        customerId: 'C-1001',
        amount: 99.8,
        dueDate: '2025-04-01',
        status: 'open',
      },
      {
        invoiceId: 'I-9003',
        orderId: 'O-5003',
        customerId: 'C-1002',
        amount: 199,
        dueDate: '2025-03-13',
        status: 'overdue',
      },
      {
        invoiceId: 'I-9004',
        orderId: 'O-5004',
        customerId: 'C-1003',
        amount: 249.8,
        dueDate: '2025-04-14',
        status: 'open',
      },
      {
        invoiceId: 'I-9005',
        orderId: 'O-5005',
        customerId: 'C-1003',
        amount: 320,
        dueDate: '2025-01-19',
        status: 'void',
      },
      {
        invoiceId: 'I-9006',
        orderId: 'O-5006',
        customerId: 'C-1004',
        amount: 796,
        dueDate: '2025-03-31',
        status: 'overdue',
      },
    ],
  };
}

function order(
  orderId: string,
  customerId: string,
  orderedAt: string,
  status: OrderStatus,
  lines: [sku: string, quantity: number, unitPrice: number][],
  invoiceId: string,
): Order {
  const orderLines = lines.map(([sku, quantity, unitPrice]) => ({ sku, quantity, unitPrice }));
  return {
    orderId,
    customerId,
    orderedAt,
    status,
    lines: orderLines,
    total: lineTotal(orderLines),
    invoiceId,
  };
}

/** Sum of quantity x unit price, rounded to cents. */
export function lineTotal(lines: readonly OrderLine[]): number {
  return Math.round(lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0) * 100) / 100;
}
