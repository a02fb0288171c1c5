import { createErpServer, erpSeedData, type InProcessProviderConfig } from '@parley/reference-server';
import { BadRequestError, defineTool, type MessageReply, toolsToExtensions } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { harness, jsonOf, messageText, shape, textOf, toolResults, toolUses } from './harness.js';

const ERP = { extensions: { mcpProviders: ['erp'] } };

/** The result of the single server tool call of a reply `[user, assistant tool_use, user tool_result, assistant]`. */
function onlyResult(reply: MessageReply) {
  expect(reply.stopReason).toBe('end_turn');
  expect(reply.messages).toHaveLength(4);
  const [call] = toolUses(reply.messages[1]);
  const [result] = toolResults(reply.messages[2]);
  expect(result?.tool_use_id).toBe(call?.id);
  return result;
}

/**
 * A provider registered through `extensions.providers` that misbehaves on purpose: an MCP server
 * (the ERP one, reused so the test needs no MCP dependency of its own) plus `boom`, which throws, and
 * `hang`, which never answers.
 */
function flakyProvider(): { config: InProcessProviderConfig; hangEntered: Promise<void> } {
  let entered!: () => void;
  const hangEntered = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const config: InProcessProviderConfig = {
    name: 'flaky',
    server: async () => {
      const server = await createErpServer();
      server.registerTool('boom', { description: 'Always fails.', inputSchema: {} }, async () => {
        throw new Error('database on fire');
      });
      server.registerTool(
        'hang',
        { description: 'Never answers.', inputSchema: {} },
        () =>
          new Promise<never>(() => {
            entered();
          }),
      );
      return server;
    },
  };
  return { config, hangEntered };
}

describe('ERP tools over MCP, through the SDK', () => {
  test('an ERP read tool runs inside the reply; its result and the answer are visible to the caller', async () => {
    const s = harness();
    const { sessionId } = await s.client.sessions.create({ customizations: ERP });
    const reply = await s.client.messages.send(sessionId, {
      content: '/mcp erp.get_customer {"customerId":"C-1002"}',
    });
    expect(shape(reply.messages)).toEqual([
      ['user:0', 'text'],
      ['assistant:1', 'tool_use:erp__get_customer'],
      ['user:2', 'tool_result'],
      ['assistant:3', 'text'],
    ]);
    expect(toolUses(reply.messages[1])[0]?.input).toEqual({ customerId: 'C-1002' });
    const result = onlyResult(reply);
    expect(result?.is_error).toBe(false);
    const seed = erpSeedData();
    const json = jsonOf(result);
    expect(json.customer).toEqual(seed.customers.find((c) => c.customerId === 'C-1002'));
    const unpaid = (status: string) =>
      seed.invoices
        .filter((i) => i.customerId === 'C-1002' && i.status === status)
        .reduce((sum, i) => sum + i.amount, 0);
    expect(json.balance).toEqual({ open: unpaid('open'), overdue: unpaid('overdue') });
    expect(messageText(reply.messages[3])).toBe(`Tool erp__get_customer returned ${JSON.stringify(json)}.`);
  });

  test('the /then answer follows the provider result in the same reply', async () => {
    const s = harness();
    const { sessionId } = await s.client.sessions.create({ customizations: ERP });
    const reply = await s.client.messages.send(sessionId, {
      content: '/mcp erp.check_stock {"sku":"SKU-300"}\n/then Sprockets are out of stock.',
    });
    expect(jsonOf(onlyResult(reply))).toMatchObject({ sku: 'SKU-300', inStock: 0, available: false });
    expect(messageText(reply.messages[3])).toBe('Sprockets are out of stock.');
  });

  test('a write tool changes the ERP state, and a later read (in another session) sees it', async () => {
    const s = harness();
    const { sessionId } = await s.client.sessions.create({ customizations: ERP });
    const created = await s.client.messages.send(sessionId, {
      content: '/mcp erp.create_order {"customerId":"C-1001","lines":[{"sku":"SKU-200","quantity":2}]}',
    });
    const order = jsonOf(onlyResult(created));
    expect(order).toMatchObject({
      order: { orderId: 'O-5007', customerId: 'C-1001', status: 'open', total: 99.8, invoiceId: 'I-9007' },
      invoice: { invoiceId: 'I-9007', amount: 99.8, status: 'open', dueDate: '2025-05-01' },
    });

    const later = await s.client.messages.send(sessionId, {
      content: '/mcp erp.get_order {"orderId":"O-5007"}',
    });
    expect(jsonOf(onlyResult(later)).order).toEqual(order.order);
    const other = await s.client.sessions.create({ customizations: ERP });
    const stock = await s.client.messages.send(other.sessionId, {
      content: '/mcp erp.check_stock {"sku":"SKU-200"}',
    });
    expect(jsonOf(onlyResult(stock))).toMatchObject({ inStock: 8 - 2 });

    const cancelled = await s.client.messages.send(sessionId, {
      content: '/mcp erp.cancel_order {"orderId":"O-5007"}',
    });
    expect(jsonOf(onlyResult(cancelled))).toMatchObject({
      order: { status: 'cancelled' },
      invoice: { status: 'void' },
    });
    const restocked = await s.client.messages.send(sessionId, {
      content: '/mcp erp.check_stock {"sku":"SKU-200"}',
    });
    expect(jsonOf(onlyResult(restocked))).toMatchObject({ inStock: 8 });
  });

  test('invalid tool input is an error result naming the field; the session continues', async () => {
    const s = harness();
    const { sessionId } = await s.client.sessions.create({ customizations: ERP });
    const reply = await s.client.messages.send(sessionId, { content: '/mcp erp.check_stock {"sku":42}' });
    const result = onlyResult(reply);
    expect(result?.is_error).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error.*sku/s);
    expect(messageText(reply.messages[3])).toMatch(/^Tool erp__check_stock failed: /);

    const next = await s.client.messages.send(sessionId, {
      content: '/mcp erp.check_stock {"sku":"SKU-100"}',
    });
    expect(onlyResult(next)?.is_error).toBe(false);
    expect(next.messages[0]?.index).toBe(4);
  });

  test('a refusal of the ERP (a business error) is an error result too', async () => {
    const s = harness();
    const { sessionId } = await s.client.sessions.create({ customizations: ERP });
    const reply = await s.client.messages.send(sessionId, {
      content: '/mcp erp.create_order {"customerId":"C-1001","lines":[{"sku":"SKU-300","quantity":1}]}',
    });
    const result = onlyResult(reply);
    expect(result?.is_error).toBe(true);
    expect(textOf(result)).toContain('Not enough SKU-300');
  });

  test('an unknown provider is a BadRequestError with code unknown_provider', async () => {
    const s = harness();
    const error = await s.client.sessions
      .create({ customizations: { extensions: { mcpProviders: ['crm'] } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'unknown_provider' });
  });
});

describe('provider failures are error results the model sees', () => {
  test('a provider that throws: is_error tool_result, the model answers, the session stays usable', async () => {
    const flaky = flakyProvider();
    const s = harness({ providers: [flaky.config] });
    const { sessionId } = await s.client.sessions.create({
      customizations: { extensions: { mcpProviders: ['flaky'] } },
    });
    const reply = await s.client.messages.send(sessionId, { content: '/mcp flaky.boom' });
    const result = onlyResult(reply);
    expect(result?.is_error).toBe(true);
    expect(textOf(result)).toContain('database on fire');
    expect(messageText(reply.messages[3])).toMatch(/^Tool flaky__boom failed: .*database on fire/);

    const next = await s.client.messages.send(sessionId, {
      content: '/mcp flaky.get_customer {"customerId":"C-1001"}',
    });
    expect(onlyResult(next)?.is_error).toBe(false);
    expect(jsonOf(toolResults(next.messages[2])[0]).customer.name).toBe('Acme GmbH');
  });

  test('a provider that does not answer within providerTimeoutMs (server clock): is_error tool_result, the session stays usable', async () => {
    const flaky = flakyProvider();
    const s = harness({ providers: [flaky.config], providerTimeoutMs: 3_000 });
    const { sessionId } = await s.client.sessions.create({
      customizations: { extensions: { mcpProviders: ['flaky'] } },
    });
    let settled = false;
    const pending = s.client.messages.send(sessionId, { content: '/mcp flaky.hang' }).finally(() => {
      settled = true;
    });
    await flaky.hangEntered;
    await s.clock.advance(2_999);
    expect(settled).toBe(false);
    await s.clock.advance(1);
    const reply = await pending;
    const result = onlyResult(reply);
    expect(result?.is_error).toBe(true);
    expect(textOf(result)).toBe('Provider "flaky" (tool hang) did not answer within 3000 ms');
    expect(messageText(reply.messages[3])).toMatch(/^Tool flaky__hang failed: /);

    const next = await s.client.messages.send(sessionId, {
      content: '/mcp flaky.check_stock {"sku":"SKU-100"}',
    });
    expect(onlyResult(next)?.is_error).toBe(false);
  });
});

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string() }),
  output: z.object({ temperatureC: z.number() }),
  run: ({ city }) => ({ temperatureC: city === 'Berlin' ? 24 : 18 }),
});

const MIXED =
  '/mcp erp.create_order {"customerId":"C-1001","lines":[{"sku":"SKU-200","quantity":2}]}\n' +
  '/tool get_weather {"city":"Berlin"}\n' +
  '/then Ordered, and it is sunny.';

const MIXED_SESSION = { extensions: { mcpProviders: ['erp'], tools: toolsToExtensions([getWeather]) } };

describe('a turn mixing a provider tool and a client tool', () => {
  test('the server runs its call, stops with only the client call pending; the resume holds both results in tool_use order, then the answer', async () => {
    const s = harness();
    const { sessionId } = await s.client.sessions.create({ customizations: MIXED_SESSION });
    const reply = await s.client.messages.send(sessionId, { content: MIXED });
    expect(reply.stopReason).toBe('tool_use');
    expect(shape(reply.messages)).toEqual([
      ['user:0', 'text'],
      ['assistant:1', 'tool_use:erp__create_order', 'tool_use:get_weather'],
    ]);
    const [erpCall, weatherCall] = toolUses(reply.messages[1]);
    expect(reply.pendingTools).toHaveLength(1);
    expect(reply.pendingTools[0]).toMatchObject({
      requestId: weatherCall?.id,
      name: 'get_weather',
      input: { city: 'Berlin' },
    });
    // The provider call already ran: another session sees the stock taken.
    const other = await s.client.sessions.create({ customizations: ERP });
    const stock = await s.client.messages.send(other.sessionId, {
      content: '/mcp erp.check_stock {"sku":"SKU-200"}',
    });
    expect(jsonOf(onlyResult(stock))).toMatchObject({ inStock: 6 });
    // The provider call is not a tool call of the tool endpoints.
    await expect(s.client.tools.get(sessionId, erpCall!.id)).rejects.toMatchObject({
      status: 404,
      code: 'tool_call_not_found',
    });

    await s.client.tools.respond(sessionId, weatherCall!.id, { temperatureC: 24 });
    const resumed = await s.client.messages.send(sessionId, {});
    expect(resumed.stopReason).toBe('end_turn');
    expect(shape(resumed.messages)).toEqual([
      ['user:2', 'tool_result', 'tool_result'],
      ['assistant:3', 'text'],
    ]);
    const [erpResult, weatherResult] = toolResults(resumed.messages[0]);
    expect(erpResult).toMatchObject({ tool_use_id: erpCall?.id, is_error: false });
    expect(jsonOf(erpResult)).toMatchObject({ order: { orderId: 'O-5007', status: 'open' } });
    expect(weatherResult).toMatchObject({ tool_use_id: weatherCall?.id, is_error: false });
    expect(jsonOf(weatherResult)).toEqual({ temperatureC: 24 });
    expect(messageText(resumed.messages[1])).toBe('Ordered, and it is sunny.');

    const exported = await s.client.messages.export(sessionId);
    expect(shape(exported)).toEqual([...shape(reply.messages), ...shape(resumed.messages)]);
  });

  test('the client tool listed first: results still follow tool_use order', async () => {
    const s = harness();
    const { sessionId } = await s.client.sessions.create({ customizations: MIXED_SESSION });
    const reply = await s.client.messages.send(sessionId, {
      content: '/tool get_weather {"city":"Oslo"}\n/mcp erp.check_stock {"sku":"SKU-100"}',
    });
    expect(reply.pendingTools.map((t) => t.name)).toEqual(['get_weather']);
    const ids = toolUses(reply.messages[1]).map((b) => b.id);
    await s.client.tools.respond(sessionId, reply.pendingTools[0]!.requestId, { temperatureC: 18 });
    const resumed = await s.client.messages.send(sessionId, {});
    expect(toolResults(resumed.messages[0]).map((r) => r.tool_use_id)).toEqual(ids);
  });

  for (const stream of [false, true]) {
    test(`runToolLoop with a defineTool client tool drives the mixed turn to the answer (stream: ${stream})`, async () => {
      const s = harness();
      const { sessionId } = await s.client.sessions.create({ customizations: MIXED_SESSION });
      const result = await s.client.runToolLoop({ sessionId, content: MIXED, tools: [getWeather], stream });
      expect(result).toMatchObject({
        status: 'done',
        stopReason: 'end_turn',
        finalText: 'Ordered, and it is sunny.',
      });
      expect(result.steps).toHaveLength(2);
      expect(result.steps[0]?.toolResults).toEqual([
        expect.objectContaining({ name: 'get_weather', status: 'COMPLETE', output: { temperatureC: 24 } }),
      ]);
      expect(shape(result.messages)).toEqual([
        ['user:0', 'text'],
        ['assistant:1', 'tool_use:erp__create_order', 'tool_use:get_weather'],
        ['user:2', 'tool_result', 'tool_result'],
        ['assistant:3', 'text'],
      ]);
      const ids = toolUses(result.messages[1]).map((b) => b.id);
      const results = toolResults(result.messages[2]);
      expect(results.map((r) => r.tool_use_id)).toEqual(ids);
      expect(jsonOf(results[0])).toMatchObject({ order: { orderId: 'O-5007' } });
      expect(jsonOf(results[1])).toEqual({ temperatureC: 24 });
    });
  }
});
