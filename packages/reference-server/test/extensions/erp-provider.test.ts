import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createErpServer, ERP_TOOL_NAMES, erpProvider, Gateway, ManualClock } from '@parley/reference-server';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

describe('the ERP server over MCP', () => {
  let client: Client;
  beforeEach(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await (await createErpServer({ now: () => Date.UTC(2025, 3, 1, 12) })).connect(serverSide);
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterEach(async () => {
    await client.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    return result as {
      isError?: boolean;
      // biome-ignore lint/suspicious/noExplicitAny: results are read loosely
      structuredContent?: any;
      content: { type: string; text: string }[];
    };
  };

  test('lists its tools with JSON Schema inputs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ERP_TOOL_NAMES].sort());
    const createOrder = tools.find((t) => t.name === 'create_order');
    expect(createOrder?.inputSchema).toMatchObject({
      type: 'object',
      properties: { customerId: { type: 'string' }, lines: { type: 'array' } },
      required: ['customerId', 'lines'],
    });
  });

  test('get_customer returns the customer with its unpaid balance', async () => {
    const result = await call('get_customer', { customerId: 'C-1001' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      customer: expect.objectContaining({ customerId: 'C-1001', name: 'Acme GmbH', creditLimit: 5000 }),
      balance: { open: 99.8, overdue: 0 },
    });
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  });

  test('list_orders filters by status, newest first', async () => {
    const all = await call('list_orders', { customerId: 'C-1003' });
    expect(all.structuredContent.orders.map((o: { orderId: string }) => o.orderId)).toEqual([
      'O-5004',
      'O-5005',
    ]);
    const open = await call('list_orders', { customerId: 'C-1003', status: 'open' });
    expect(open.structuredContent.orders).toHaveLength(1);
  });

  test('the data set is coherent: every order total equals its invoice amount', async () => {
    for (const customerId of ['C-1001', 'C-1002', 'C-1003', 'C-1004']) {
      const { structuredContent } = await call('list_orders', { customerId });
      for (const order of structuredContent.orders) {
        const invoice = await call('get_invoice', { invoiceId: order.invoiceId });
        expect(invoice.structuredContent.invoice).toMatchObject({
          orderId: order.orderId,
          amount: order.total,
        });
      }
    }
  });

  test('create_order takes stock, issues an invoice, and cancel_order puts it back', async () => {
    const before = await call('check_stock', { sku: 'SKU-200' });
    expect(before.structuredContent).toMatchObject({ inStock: 8, available: true });

    const created = await call('create_order', {
      customerId: 'C-1002',
      lines: [{ sku: 'SKU-200', quantity: 3 }],
    });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent.order).toMatchObject({
      orderId: 'O-5007',
      status: 'open',
      total: 149.7,
      orderedAt: '2025-04-01T12:00:00.000Z',
    });
    expect(created.structuredContent.invoice).toMatchObject({
      invoiceId: 'I-9007',
      amount: 149.7,
      dueDate: '2025-05-01',
    });
    expect((await call('check_stock', { sku: 'SKU-200' })).structuredContent.inStock).toBe(5);
    expect((await call('get_customer', { customerId: 'C-1002' })).structuredContent.balance).toEqual({
      open: 149.7,
      overdue: 199,
    });

    const cancelled = await call('cancel_order', { orderId: 'O-5007' });
    expect(cancelled.structuredContent.invoice.status).toBe('void');
    expect((await call('check_stock', { sku: 'SKU-200' })).structuredContent.inStock).toBe(8);
  });

  test('create_order refuses short stock and an exceeded credit limit, changing nothing', async () => {
    const short = await call('create_order', {
      customerId: 'C-1001',
      lines: [{ sku: 'SKU-300', quantity: 1 }],
    });
    expect(short.isError).toBe(true);
    expect(short.content[0]?.text).toContain('Not enough SKU-300');
    const credit = await call('create_order', {
      customerId: 'C-1004',
      lines: [{ sku: 'SKU-400', quantity: 2 }],
    });
    expect(credit.isError).toBe(true);
    expect(credit.content[0]?.text).toContain('Credit limit of Umbrella SA exceeded');
    expect((await call('check_stock', { sku: 'SKU-400' })).structuredContent.inStock).toBe(15);
  });

  test('invalid input is an error result naming the field', async () => {
    const result = await call('create_order', {
      customerId: 'C-1001',
      lines: [{ sku: 'SKU-100', quantity: 0 }],
    });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/Input validation error/);
    expect(result.content[0]?.text).toContain('quantity');
    expect((await call('get_customer', {})).isError).toBe(true);
  });

  test('unknown ids are error results', async () => {
    expect((await call('get_customer', { customerId: 'C-9' })).content[0]?.text).toBe('No customer C-9');
    expect((await call('get_invoice', { invoiceId: 'I-1' })).isError).toBe(true);
    expect((await call('cancel_order', { orderId: 'O-5001' })).content[0]?.text).toContain('is delivered');
  });
});

describe('the erp provider through the gateway', () => {
  test('exposes erp__ tools whose results are JSON parts; state is per gateway', async () => {
    const clock = new ManualClock(Date.UTC(2025, 5, 1));
    const first = new Gateway({ providers: [erpProvider({ clock })], clock });
    const second = new Gateway({ providers: [erpProvider({ clock })], clock });
    try {
      const tools = await first.serverTools(['erp']);
      expect(tools.map((t) => t.name).sort()).toEqual(ERP_TOOL_NAMES.map((n) => `erp__${n}`).sort());
      const context = { sessionId: 's', signal: new AbortController().signal };
      const create = tools.find((t) => t.name === 'erp__create_order');
      const result = await create?.call(
        { customerId: 'C-1003', lines: [{ sku: 'SKU-100', quantity: 100 }] },
        context,
      );
      expect(result?.isError).toBe(false);
      expect(result?.content).toEqual([
        {
          type: 'json',
          json: expect.objectContaining({
            order: expect.objectContaining({ orderedAt: '2025-06-01T00:00:00.000Z' }),
          }),
        },
      ]);
      const stock = (g: Gateway) => g.call('erp', 'check_stock', { sku: 'SKU-100' });
      expect((await stock(first)).content).toEqual([
        { type: 'json', json: expect.objectContaining({ inStock: 20 }) },
      ]);
      expect((await stock(second)).content).toEqual([
        { type: 'json', json: expect.objectContaining({ inStock: 120 }) },
      ]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
