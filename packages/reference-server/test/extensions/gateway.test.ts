import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Gateway, ManualClock } from '@parley/reference-server';
import { afterEach, describe, expect, test } from 'vitest';
import { testProvider } from './helpers/test-provider.js';
import { until } from './helpers/until.js';

const gateways: Gateway[] = [];
function gatewayWith(...args: ConstructorParameters<typeof Gateway>): Gateway {
  const gateway = new Gateway(...args);
  gateways.push(gateway);
  return gateway;
}
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.close()));
});

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

/** A transport that accepts messages and never answers. */
function silentTransport(): Transport {
  return {
    start: async () => undefined,
    send: async () => undefined,
    close: async () => undefined,
  };
}

describe('gateway tools', () => {
  test('lists provider tools as provider__tool server tools', async () => {
    const { config } = testProvider('acme');
    const gateway = gatewayWith({ providers: [config] });
    const tools = await gateway.serverTools(['acme']);
    expect(tools.map((t) => t.name).sort()).toEqual([
      'acme__boom',
      'acme__dotted_name',
      'acme__echo',
      'acme__hang',
    ]);
    const echo = tools.find((t) => t.name === 'acme__echo');
    expect(echo?.description).toBe('[acme] Echoes its input.');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
  });

  test('a sanitised name calls the tool under its original name', async () => {
    const { config } = testProvider();
    const gateway = gatewayWith({ providers: [config] });
    const tool = (await gateway.serverTools(['test'])).find((t) => t.name === 'test__dotted_name');
    const result = await tool?.call({}, { sessionId: 's', signal: new AbortController().signal });
    expect(result).toEqual({ isError: false, content: [{ type: 'text', text: 'ok' }] });
  });

  test('connects lazily, once, and reuses the connection', async () => {
    const { config, probe } = testProvider();
    const gateway = gatewayWith({ providers: [config] });
    expect(probe.servers).toBe(0);
    await Promise.all([gateway.tools('test'), gateway.tools('test')]);
    await gateway.call('test', 'echo', { message: 'a' });
    await gateway.call('test', 'echo', { message: 'b' });
    expect(probe.servers).toBe(1);
  });

  test('rejects invalid and duplicate provider names', () => {
    expect(() => gatewayWith({ providers: [testProvider('a__b').config] })).toThrow(/Invalid provider name/);
    expect(() => gatewayWith({ providers: [testProvider('x').config, testProvider('x').config] })).toThrow(
      /twice/,
    );
  });
});

describe('provider failures become error results', () => {
  test('a tool that throws', async () => {
    const gateway = gatewayWith({ providers: [testProvider().config] });
    const result = await gateway.call('test', 'boom', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('database on fire');
  });

  test('invalid tool input, named by the provider', async () => {
    const gateway = gatewayWith({ providers: [testProvider().config] });
    const result = await gateway.call('test', 'echo', { message: 42 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error.*message/s);
  });

  test('an unknown tool', async () => {
    const gateway = gatewayWith({ providers: [testProvider().config] });
    const result = await gateway.call('test', 'nope', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('nope');
  });

  test('an unknown provider', async () => {
    const result = await gatewayWith().call('ghost', 'x', {});
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Unknown provider "ghost"' }] });
  });

  test('a provider that cannot start: no tools, error results, retried on next use', async () => {
    let attempts = 0;
    const gateway = gatewayWith({
      providers: [
        {
          name: 'broken',
          server: () => {
            attempts += 1;
            throw new Error('cannot start');
          },
        },
      ],
    });
    expect(await gateway.serverTools(['broken'])).toEqual([]);
    const result = await gateway.call('broken', 'x', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('cannot start');
    expect(attempts).toBe(2);
  });

  test('the gateway stays usable after a failure', async () => {
    const gateway = gatewayWith({ providers: [testProvider().config] });
    await gateway.call('test', 'boom', {});
    expect(await gateway.call('test', 'echo', { message: 'still here' })).toEqual({
      isError: false,
      content: [{ type: 'text', text: 'still here' }],
    });
  });
});

describe('provider timeouts (on the injected clock)', () => {
  test('a tool that never answers is an error result after the timeout, and is cancelled', async () => {
    const clock = new ManualClock(0);
    const { config, probe } = testProvider();
    const gateway = gatewayWith({ providers: [config], clock, timeoutMs: 5_000 });
    await gateway.tools('test');
    const pending = gateway.call('test', 'hang', {});
    await probe.hangEntered;
    await clock.advance(4_999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await clock.advance(1);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Provider "test" (tool hang) did not answer within 5000 ms');
    await until(() => probe.hangCancelled);
  });

  test('the default timeout is 10 s, and a provider can override it', async () => {
    const clock = new ManualClock(0);
    const slow = testProvider('slow');
    const gateway = gatewayWith({
      providers: [testProvider().config, { ...slow.config, timeoutMs: 60_000 }],
      clock,
    });
    await gateway.tools('test');
    await gateway.tools('slow');
    const fast = gateway.call('test', 'hang', {});
    const patient = gateway.call('slow', 'hang', {});
    await clock.advance(10_000);
    expect(textOf(await fast)).toContain('within 10000 ms');
    await clock.advance(50_000);
    expect(textOf(await patient)).toContain('within 60000 ms');
  });

  test('a provider that never completes the handshake: no tools and an error result', async () => {
    const clock = new ManualClock(0);
    const gateway = gatewayWith({ providers: [{ name: 'mute', transport: silentTransport }], clock });
    const tools = gateway.serverTools(['mute']);
    await until(() => clock.pendingSleeps > 0);
    await clock.advance(10_000);
    expect(await tools).toEqual([]);
    const call = gateway.call('mute', 'x', {});
    await until(() => clock.pendingSleeps > 0);
    await clock.advance(10_000);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('did not answer within 10000 ms');
  });

  test('an interrupted reply cancels the call', async () => {
    const { config, probe } = testProvider();
    const gateway = gatewayWith({ providers: [config], clock: new ManualClock(0) });
    await gateway.tools('test');
    const controller = new AbortController();
    const pending = gateway.call('test', 'hang', {}, { signal: controller.signal });
    await probe.hangEntered;
    controller.abort(new Error('client went away'));
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('cancelled');
  });
});

describe('close', () => {
  test('closes connections; later calls are error results', async () => {
    const gateway = gatewayWith({ providers: [testProvider().config] });
    await gateway.tools('test');
    await gateway.close();
    const result = await gateway.call('test', 'echo', { message: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('closed');
  });
});
