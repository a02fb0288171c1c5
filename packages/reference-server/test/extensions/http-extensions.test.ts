import type { Message, StreamBody } from '@parley/protocol';
import { PREFETCH_JSON_KEY } from '@parley/reference-server';
import { afterEach, describe, expect, test } from 'vitest';
import { expectError } from '../helpers/api.js';
import { type ExtensionServer, extensionServer } from './helpers/extension-server.js';
import { testProvider } from './helpers/test-provider.js';

const servers: ExtensionServer[] = [];
function setup(...args: Parameters<typeof extensionServer>): ExtensionServer {
  const s = extensionServer(...args);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const shape = (messages: Message[]) =>
  messages.map((m) => [
    m.role,
    m.index,
    ...m.content.map((b) => (b.type === 'tool_use' ? `tool_use:${b.name}` : b.type)),
  ]);

// biome-ignore lint/suspicious/noExplicitAny: reading tool results loosely
const resultOf = (message: Message | undefined, i = 0): any => message?.content[i];

describe('retrieval through HTTP', () => {
  const ask = '/search refund policy shipping\n/then Refunds are possible within 30 days.';

  test('a retrieval call, its result and the answer in one buffered reply', async () => {
    const s = setup();
    const id = await s.createSession({
      extensions: { rag: { maxResults: 2, tagFilter: { include: { lang: ['en'] } } } },
    });
    const reply = await s.send(id, ask);
    expect(reply.stopReason).toBe('end_turn');
    expect(reply.pendingTools).toEqual([]);
    expect(shape(reply.messages)).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'tool_use:search_documents'],
      ['user', 2, 'tool_result'],
      ['assistant', 3, 'text'],
    ]);
    expect(reply.messages[1]?.content[0]).toMatchObject({ input: { query: 'refund policy shipping' } });
    const result = resultOf(reply.messages[2]);
    expect(result.is_error).toBe(false);
    const results = result.content[0].json.results;
    expect(results.map((r: { id: string }) => r.id).sort()).toEqual(['refund-policy', 'shipping-times']);
    expect(results[0]).toMatchObject({ index: 'handbook', tags: { lang: ['en'] } });
    expect(typeof results[0].score).toBe('number');
    expect(reply.messages[3]?.content[0]).toEqual({
      type: 'text',
      text: 'Refunds are possible within 30 days.',
    });
  });

  test('a retrieval call, its result and the answer in one stream', async () => {
    const s = setup();
    const id = await s.createSession({ extensions: { rag: { maxResults: 1 } } });
    const res = await s.call<StreamBody>('POST', `/v1/messages/${id}/stream`, { content: ask });
    expect(res.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: events are read loosely
    const events = res.body.events as Record<string, any>[];
    const starts = events.filter((e) => 'messageStart' in e).map((e) => e.messageStart);
    expect(starts).toEqual([
      { role: 'user', index: 0 },
      { role: 'assistant', index: 1 },
      { role: 'user', index: 2 },
      { role: 'assistant', index: 3 },
    ]);
    expect(events).toContainEqual({
      contentBlockStart: {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: expect.any(String), name: 'search_documents' } },
      },
    });
    const toolResultDelta = events.find((e) => e.contentBlockDelta?.delta?.toolResult !== undefined);
    expect(toolResultDelta?.contentBlockDelta.delta.toolResult[0].json.results[0]).toMatchObject({
      id: 'refund-policy',
      score: expect.any(Number),
      tags: expect.any(Object),
    });
    const replyStop = events.at(-1)?.replyStop;
    expect(replyStop.stopReason).toBe('end_turn');
    expect(shape(replyStop.messages)).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'tool_use:search_documents'],
      ['user', 2, 'tool_result'],
      ['assistant', 3, 'text'],
    ]);
  });

  test('prefetch injects a system message before the first user message only', async () => {
    const s = setup();
    const id = await s.createSession({ extensions: { rag: { prefetchEnabled: true, maxResults: 2 } } });
    const first = await s.send(id, 'How long does shipping take?');
    expect(shape(first.messages)).toEqual([
      ['system', 0, 'text', 'text'],
      ['user', 1, 'text'],
      ['assistant', 2, 'text'],
    ]);
    const [listing, json] = first.messages[0]!.content as { text: string }[];
    expect(listing?.text).toContain('handbook/shipping-times');
    const data = JSON.parse(json?.text ?? '')[PREFETCH_JSON_KEY];
    expect(data.documents[0]).toMatchObject({
      id: 'shipping-times',
      index: 'handbook',
      score: expect.any(Number),
    });
    const second = await s.send(id, 'And refunds?');
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  test("the support agent's retrieval defaults apply (prefetch, public documents only)", async () => {
    const s = setup();
    const id = await s.createSession({ agentId: 'support' });
    const reply = await s.send(id, 'escalate a ticket about a payment charged twice');
    const system = reply.messages[0];
    expect(system?.role).toBe('system');
    const data = JSON.parse((system!.content[1] as { text: string }).text)[PREFETCH_JSON_KEY];
    expect(data.documents.map((d: { id: string }) => d.id)).not.toContain('escalation');
    expect(
      data.documents.every((d: { tags: { visibility: string[] } }) => d.tags.visibility[0] === 'public'),
    ).toBe(true);
  });

  test('an unknown index is 400 unknown_index at session creation', async () => {
    const s = setup();
    const res = await s.call('POST', '/v1/sessions', {
      customizations: { extensions: { rag: { indexes: ['wiki'] } } },
    });
    expectError(res, 400, 'unknown_index');
  });
});

describe('gateway providers through HTTP', () => {
  test('an ERP tool call over MCP, answered in the same reply', async () => {
    const s = setup();
    const id = await s.createSession({ extensions: { mcpProviders: ['erp'] } });
    const reply = await s.send(id, '/mcp erp.get_customer {"customerId":"C-1002"}');
    expect(shape(reply.messages)).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'tool_use:erp__get_customer'],
      ['user', 2, 'tool_result'],
      ['assistant', 3, 'text'],
    ]);
    expect(resultOf(reply.messages[2])).toMatchObject({
      is_error: false,
      content: [{ type: 'json', json: { customer: { name: 'Globex Ltd' }, balance: { overdue: 199 } } }],
    });
    expect((reply.messages[3]!.content[0] as { text: string }).text).toContain(
      'Tool erp__get_customer returned',
    );
  });

  test('a provider failure is an error result the model sees; the session goes on', async () => {
    const s = setup({ providers: [testProvider().config] });
    const id = await s.createSession({ extensions: { mcpProviders: ['test'] } });
    const reply = await s.send(id, '/mcp test.boom');
    expect(reply.stopReason).toBe('end_turn');
    expect(resultOf(reply.messages[2])).toMatchObject({ is_error: true });
    expect((reply.messages[3]!.content[0] as { text: string }).text).toMatch(
      /Tool test__boom failed: .*database on fire/,
    );
    const next = await s.send(id, '/mcp test.echo {"message":"still fine"}');
    expect(resultOf(next.messages[2])).toMatchObject({
      is_error: false,
      content: [{ type: 'text', text: 'still fine' }],
    });
  });

  test('invalid provider tool input is an error result naming the field', async () => {
    const s = setup();
    const id = await s.createSession({ extensions: { mcpProviders: ['erp'] } });
    const reply = await s.send(id, '/mcp erp.check_stock {"sku": 42}');
    const result = resultOf(reply.messages[2]);
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toMatch(/Input validation error.*sku/s);
  });

  test('a provider that does not answer in time is an error result', async () => {
    const provider = testProvider();
    const s = setup({ providers: [provider.config], providerTimeoutMs: 3_000 });
    const id = await s.createSession({ extensions: { mcpProviders: ['test'] } });
    const pending = s.send(id, '/mcp test.hang');
    await provider.probe.hangEntered;
    await s.clock.advance(3_000);
    const reply = await pending;
    expect(resultOf(reply.messages[2])).toMatchObject({
      is_error: true,
      content: [{ type: 'text', text: 'Provider "test" (tool hang) did not answer within 3000 ms' }],
    });
  });

  test('a turn mixing a provider tool and a client tool: the server runs its call, then returns the client one', async () => {
    const s = setup();
    const id = await s.createSession({
      extensions: {
        mcpProviders: ['erp'],
        tools: {
          get_weather: {
            name: 'get_weather',
            description: 'Weather of a city',
            requestArgs: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      },
    });
    const reply = await s.send(
      id,
      '/mcp erp.create_order {"customerId":"C-1001","lines":[{"sku":"SKU-200","quantity":2}]}\n/tool get_weather {"city":"Berlin"}\n/then Ordered, and it is sunny.',
    );
    expect(reply.stopReason).toBe('tool_use');
    expect(shape(reply.messages)).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'tool_use:erp__create_order', 'tool_use:get_weather'],
    ]);
    expect(reply.pendingTools.map((t) => t.name)).toEqual(['get_weather']);
    // The provider call already ran inside the reply.
    const stock = await s.host.gateway.call('erp', 'check_stock', { sku: 'SKU-200' });
    expect(stock.content[0]).toMatchObject({ json: { inStock: 6 } });

    const requestId = reply.pendingTools[0]?.requestId;
    const done = await s.call('POST', `/v1/tools/response/${id}/${requestId}`, {
      response: { state: 'COMPLETE', temperatureC: 24 },
    });
    expect(done.status, done.text).toBe(200);
    const resumed = await s.send(id);
    expect(shape(resumed.messages)).toEqual([
      ['user', 2, 'tool_result', 'tool_result'],
      ['assistant', 3, 'text'],
    ]);
    expect(resultOf(resumed.messages[0], 0)).toMatchObject({
      is_error: false,
      content: [{ type: 'json', json: { order: { orderId: 'O-5007', status: 'open' } } }],
    });
    expect(resultOf(resumed.messages[0], 1)).toMatchObject({
      content: [{ type: 'json', json: { temperatureC: 24 } }],
    });
    expect(resumed.messages[1]?.content[0]).toEqual({ type: 'text', text: 'Ordered, and it is sunny.' });
  });

  test('an unknown provider is 400 unknown_provider at session creation', async () => {
    const s = setup();
    const res = await s.call('POST', '/v1/sessions', {
      customizations: { extensions: { mcpProviders: ['crm'] } },
    });
    expectError(res, 400, 'unknown_provider');
  });
});

describe('quotas through HTTP', () => {
  test('over quota is 429 quota_exceeded with Retry-After; admitted again after it', async () => {
    const s = setup({ quotas: [{ product: 'checkout', messagesPerMinute: 2 }] });
    const id = await s.createSession({ product: 'checkout' });
    await s.send(id, 'one');
    await s.clock.advance(20_000);
    await s.send(id, 'two');
    const refused = await s.call('POST', `/v1/messages/${id}`, { content: 'three' });
    const error = expectError(refused, 429, 'quota_exceeded');
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(error.details).toMatchObject({ retryAfterSeconds: 40, product: 'checkout' });
    await s.clock.advance(40_000);
    await s.send(id, 'three');
    const other = await s.createSession({ product: 'search' });
    for (let i = 0; i < 3; i++) await s.send(other, `message ${i}`);
  });

  test('a full server.reset() empties the quota windows; a reset of one user does not', async () => {
    const s = setup({ quotas: [{ product: 'checkout', messagesPerMinute: 1 }] });
    await s.send(await s.createSession({ product: 'checkout' }), 'one');
    s.server.reset({ user: 'demo' });
    expectError(
      await s.call('POST', `/v1/messages/${await s.createSession({ product: 'checkout' })}`, {
        content: 'two',
      }),
      429,
      'quota_exceeded',
    );
    s.server.reset();
    await s.send(await s.createSession({ product: 'checkout' }), 'two');
  });
});
