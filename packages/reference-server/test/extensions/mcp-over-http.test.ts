import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  createReferenceServer,
  ERP_TOOL_NAMES,
  ManualClock,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '@parley/reference-server';
import { runCli } from '@parley/reference-server/node';
import { afterEach, describe, expect, test } from 'vitest';
import { caller } from '../helpers/api.js';
import { TRANSPORTS, type Transport } from '../helpers/transports.js';

const USERS = [
  { name: 'alice', token: 'alice-token' },
  { name: 'bob', token: 'bob-token' },
];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A started reference server (as `transport` serves it) and the URL of its `erp` provider. */
async function start(transport: Transport, options: ReferenceServerOptions = { control: true }) {
  const started = await transport.start({
    clock: new ManualClock(Date.UTC(2025, 3, 1)),
    users: USERS,
    ...options,
  });
  cleanups.push(() => started.close());
  return { ...started, erpUrl: new URL(`${started.baseUrl}/mcp/erp`) };
}

/** The official MCP client, connected by URL with a user's bearer token. */
async function connect(url: URL, token: string | undefined, fetch?: typeof globalThis.fetch) {
  const client = new Client({ name: 'mcp-over-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, {
    ...(token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    ...(fetch === undefined ? {} : { fetch }),
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

// biome-ignore lint/suspicious/noExplicitAny: structured content is read loosely
type Structured = any;

describe.each(TRANSPORTS)('the erp provider by URL over $name', (transport) => {
  test('the official MCP client lists its tools, each with an input and an output schema', async () => {
    const { erpUrl } = await start(transport);
    const client = await connect(erpUrl, 'alice-token');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ERP_TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    expect(tools.find((t) => t.name === 'get_customer')?.outputSchema).toMatchObject({
      properties: {
        customer: { type: 'object', required: expect.arrayContaining(['customerId', 'creditLimit']) },
        balance: { type: 'object', properties: { open: { type: 'number' }, overdue: { type: 'number' } } },
      },
      required: ['customer', 'balance'],
    });
  });

  test('a tool call returns structuredContent that its outputSchema accepts', async () => {
    const { erpUrl } = await start(transport);
    const client = await connect(erpUrl, 'alice-token');
    const result = await client.callTool({ name: 'get_customer', arguments: { customerId: 'C-1001' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      customer: expect.objectContaining({ customerId: 'C-1001', name: 'Acme GmbH', creditLimit: 5000 }),
      balance: { open: 99.8, overdue: 0 },
    });
    // The text part carries the same JSON, for clients that do not read structured content.
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual(
      result.structuredContent,
    );
  });

  test('without a token, or with an unknown one, the client is refused with 401', async () => {
    const { erpUrl } = await start(transport);
    // The SDK's StreamableHTTPError carries the HTTP status and the server's JSON error body.
    await expect(connect(erpUrl, undefined)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('"code":"unauthorized"'),
    });
    await expect(connect(erpUrl, 'mallory-token')).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('The bearer token is not valid'),
    });
    const refused = await fetch(erpUrl, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await refused.json()).toEqual({
      error: { code: 'unauthorized', message: 'The Authorization header is missing' },
    });
  });
});

describe('the erp provider by URL, in process', () => {
  /** A reference server reached only through its fetch, and a client that uses that fetch. */
  function inProcess(options: ReferenceServerOptions = { control: true }) {
    const server = createReferenceServer({
      clock: new ManualClock(Date.UTC(2025, 3, 1)),
      users: USERS,
      ...options,
    });
    cleanups.push(() => server.close());
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      server.fetch(new Request(input, init))) as typeof globalThis.fetch;
    return { server, fetch, erpUrl: new URL('http://parley.test/mcp/erp') };
  }

  test('works through an injected fetch: no socket, no msw', async () => {
    const { fetch, erpUrl } = inProcess();
    const client = await connect(erpUrl, 'bob-token', fetch);
    const result = await client.callTool({ name: 'check_stock', arguments: { sku: 'SKU-200', quantity: 9 } });
    expect(result.structuredContent).toEqual({
      sku: 'SKU-200',
      name: 'Gadget',
      inStock: 8,
      available: false,
    });
  });

  test('every successful tool result validates against the tool’s declared outputSchema', async () => {
    const { fetch, erpUrl } = inProcess();
    const client = await connect(erpUrl, 'alice-token', fetch);
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => {
      const schema = tools.find((t) => t.name === name)?.outputSchema;
      if (schema === undefined) throw new Error(`${name} has no outputSchema`);
      return new AjvJsonSchemaValidator().getValidator(schema as never);
    };
    const calls: [string, Record<string, unknown>][] = [
      ['find_customers', {}],
      ['get_customer', { customerId: 'C-1003' }],
      ['list_orders', { customerId: 'C-1003' }],
      ['get_order', { orderId: 'O-5004' }],
      ['get_invoice', { invoiceId: 'I-9004' }],
      ['list_products', {}],
      ['check_stock', { sku: 'SKU-100' }],
      ['create_order', { customerId: 'C-1003', lines: [{ sku: 'SKU-100', quantity: 2 }] }],
      ['cancel_order', { orderId: 'O-5007' }],
    ];
    expect(calls.map(([name]) => name).sort()).toEqual([...ERP_TOOL_NAMES].sort());
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBeFalsy();
      expect(schemaOf(name)(result.structuredContent), name).toMatchObject({ valid: true });
    }
    // The schemas say something: a customer without its fields is refused.
    expect(schemaOf('find_customers')({ customers: [{ customerId: 'C-1' }] })).toMatchObject({
      valid: false,
    });
    expect(schemaOf('check_stock')({ sku: 'SKU-1', name: 'x', inStock: 1.5, available: true })).toMatchObject(
      {
        valid: false,
      },
    );
  });

  test('a failing call is an error result without structured content, as MCP allows', async () => {
    const { fetch, erpUrl } = inProcess();
    const client = await connect(erpUrl, 'alice-token', fetch);
    const result = await client.callTool({ name: 'get_order', arguments: { orderId: 'O-1' } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No order O-1' }] });
    expect(result.structuredContent).toBeUndefined();
  });

  test('the URL and the model see the same ERP data: an order placed by URL is found by a session', async () => {
    const { server, fetch, erpUrl } = inProcess();
    const client = await connect(erpUrl, 'alice-token', fetch);
    const created = await client.callTool({
      name: 'create_order',
      arguments: { customerId: 'C-1002', lines: [{ sku: 'SKU-200', quantity: 3 }] },
    });
    const order = (created.structuredContent as Structured).order;
    expect(order).toMatchObject({ orderId: 'O-5007', status: 'open', orderedAt: '2025-04-01T00:00:00.000Z' });

    const call = caller(server.fetch, 'http://parley.test', 'alice-token');
    const session = await call('POST', '/v1/sessions', {
      customizations: { extensions: { mcpProviders: ['erp'] } },
    });
    const reply = await call('POST', `/v1/messages/${session.body.sessionId}`, {
      content: '/mcp erp.check_stock {"sku":"SKU-200"}',
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.messages[2].content[0].content).toEqual([
      { type: 'json', json: { sku: 'SKU-200', name: 'Gadget', inStock: 5, available: true } },
    ]);
  });

  test('a full server.reset() puts the erp data back as it started, for open connections too', async () => {
    const { server, fetch, erpUrl } = inProcess();
    const client = await connect(erpUrl, 'alice-token', fetch);
    const stock = async () =>
      (
        (await client.callTool({ name: 'check_stock', arguments: { sku: 'SKU-200' } }))
          .structuredContent as Structured
      ).inStock;
    const before = await stock();
    const created = await client.callTool({
      name: 'create_order',
      arguments: { customerId: 'C-1002', lines: [{ sku: 'SKU-200', quantity: 3 }] },
    });
    expect((created.structuredContent as Structured).order.orderId).toBe('O-5007');
    expect(await stock()).toBe(before - 3);

    server.reset({ user: 'alice' });
    expect(await stock()).toBe(before - 3);

    server.reset();
    expect(await stock()).toBe(before);
    const gone = await client.callTool({ name: 'get_order', arguments: { orderId: 'O-5007' } });
    expect(gone).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No order O-5007' }] });
    const again = await client.callTool({
      name: 'create_order',
      arguments: { customerId: 'C-1002', lines: [{ sku: 'SKU-200', quantity: 3 }] },
    });
    expect((again.structuredContent as Structured).order.orderId).toBe('O-5007');
  });

  test('MCP requests are journal entries of the user whose token they carried', async () => {
    const { server, fetch, erpUrl } = inProcess();
    await connect(erpUrl, 'bob-token', fetch);
    const entries = server.journal.entries().filter((e) => e.path === '/mcp/erp');
    expect(entries.length).toBeGreaterThanOrEqual(2); // initialize, initialized (and the client's GET)
    expect(entries.every((e) => e.user === 'bob')).toBe(true);
    expect(entries[0]).toMatchObject({ method: 'POST', response: { status: 200, complete: true } });
  });
});

describe('when and where the providers are served', () => {
  const request = (server: ReferenceServer, path: string, init: RequestInit = {}) =>
    server.fetch(
      new Request(`http://parley.test${path}`, {
        method: 'POST',
        ...init,
        headers: {
          authorization: 'Bearer alice-token',
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...init.headers,
        },
      }),
    );
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const serve = (options: ReferenceServerOptions) => {
    const server = createReferenceServer({ users: USERS, ...options });
    cleanups.push(() => server.close());
    return server;
  };

  test('with the control routes by default; mcpOverHttp turns it on or off on its own', async () => {
    const cases: [ReferenceServerOptions, boolean][] = [
      [{}, false],
      [{ control: true }, true],
      [{ control: true, mcpOverHttp: false }, false],
      [{ mcpOverHttp: true }, true],
      [{ mcpOverHttp: true, extensions: false }, false],
    ];
    for (const [options, served] of cases) {
      const server = serve(options);
      const response = await request(server, '/mcp/erp', { body: initialize });
      expect(response.status, JSON.stringify(options)).toBe(served ? 200 : 404);
      expect(server.mcpOverHttp, JSON.stringify(options)).toBe(served);
      if (!served) expect((await response.json()).error.code).toBe('route_not_found');
    }
  });

  test('an unknown provider, a provider not run in process, or /mcp itself is 404 naming what is served', async () => {
    const server = serve({
      control: true,
      extensions: { providers: [{ name: 'crm', url: 'http://127.0.0.1:9/mcp' }] },
    });
    for (const [path, message] of [
      ['/mcp/nope', 'No MCP provider at /mcp/nope (served: /mcp/erp)'],
      ['/mcp', 'No MCP provider at /mcp (served: /mcp/erp)'],
      ['/mcp/erp/tools', 'No MCP provider at /mcp/erp/tools (served: /mcp/erp)'],
      [
        '/mcp/crm',
        'Provider "crm" is not served over HTTP: only in-process providers are (served: /mcp/erp)',
      ],
    ]) {
      const response = await request(server, path!, { body: initialize });
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({
        error: { code: 'route_not_found', message, details: { served: ['erp'] } },
      });
    }
  });

  test('the endpoint is stateless: GET and DELETE are 405, no MCP session id is handed out', async () => {
    const server = serve({ control: true });
    const initialized = await request(server, '/mcp/erp', { body: initialize });
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get('mcp-session-id')).toBeNull();
    expect((await initialized.json()).result.serverInfo).toMatchObject({ name: 'parley-erp' });
    // Each request stands alone: a tool call needs no initialize before it.
    const call = await request(server, '/mcp/erp', {
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'check_stock', arguments: { sku: 'SKU-300' } },
      }),
    });
    expect(await call.json()).toMatchObject({
      id: 2,
      result: { structuredContent: { sku: 'SKU-300', inStock: 0, available: false } },
    });
    for (const method of ['GET', 'DELETE']) {
      const response = await request(server, '/mcp/erp', { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await response.json()).error.code).toBe(-32000);
    }
  });

  test('a body over maxBodyBytes is 413 before anything is parsed', async () => {
    const server = serve({ control: true, maxBodyBytes: 100 });
    const response = await request(server, '/mcp/erp', { body: initialize.padEnd(200) });
    expect(response.status).toBe(413);
  });

  test('a browser on another origin may call it: preflight allows the MCP protocol header', async () => {
    const server = serve({ control: true });
    const preflight = await server.fetch(
      new Request('http://parley.test/mcp/erp', {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:6274',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('parley-server --control', () => {
  test('prints where the MCP providers are and serves /mcp/erp with the demo token', async () => {
    const out: string[] = [];
    const result = await runCli(['--port', '0', '--control'], {
      stdout: (t) => out.push(t),
      stderr: () => {},
    });
    const running = result.running!;
    cleanups.push(() => running.close());
    expect(out.join('')).toContain(`  MCP providers:  ${running.url}/mcp/<name>\n`);
    const client = await connect(new URL(`${running.url}/mcp/erp`), 'parley-demo-token');
    const listed = await client.callTool({ name: 'list_products', arguments: {} });
    expect((listed.structuredContent as Structured).products).toHaveLength(5);
  });
});
