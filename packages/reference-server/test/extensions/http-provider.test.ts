import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message, MessageReply } from '@parley/protocol';
import {
  createReferenceServer,
  type ExtensionHostOptions,
  ManualClock,
  type Model,
  type ReferenceServer,
  standInModel,
} from '@parley/reference-server';
import { afterEach, describe, expect, test } from 'vitest';
import { loadExtensionsConfigFile } from '../../src/extensions/load-files.js';
import { type Call, caller } from '../helpers/api.js';
import { freePort, type HttpMcpServer, startHttpMcpServer, TICKETS } from './helpers/http-mcp-server.js';
import { until } from './helpers/until.js';

// Everything started here is closed after each test, reference servers (and their gateway
// connections) first, then the MCP servers.
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mcpServer(port?: number): Promise<HttpMcpServer> {
  const server = await startHttpMcpServer(port);
  cleanups.push(() => server.close());
  return server;
}

interface Parley {
  server: ReferenceServer;
  call: Call;
  /** The tool names of every model call, in order. */
  toolsSeen: string[][];
  createSession(customizations: unknown): Promise<string>;
  send(sessionId: string, content: string): Promise<MessageReply>;
}

/** A reference server with these extensions, the stand-in model, and a record of the tools it saw. */
function parley(extensions: ExtensionHostOptions): Parley {
  const toolsSeen: string[][] = [];
  const model: Model = (request) => {
    toolsSeen.push(request.tools.map((t) => t.name));
    return standInModel(request);
  };
  const server = createReferenceServer({ clock: new ManualClock(Date.UTC(2025, 3, 1)), model, extensions });
  cleanups.push(() => server.close());
  const call = caller(server.fetch);
  return {
    server,
    call,
    toolsSeen,
    async createSession(customizations) {
      const res = await call('POST', '/v1/sessions', { customizations });
      expect(res.status, res.text).toBe(201);
      return res.body.sessionId as string;
    },
    async send(sessionId, content) {
      const res = await call<MessageReply>('POST', `/v1/messages/${sessionId}`, { content });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
  };
}

const shape = (messages: Message[]) =>
  messages.map((m) => [
    m.role,
    m.index,
    ...m.content.map((b) => (b.type === 'tool_use' ? `tool_use:${b.name}` : b.type)),
  ]);

// biome-ignore lint/suspicious/noExplicitAny: reading blocks loosely
const block = (message: Message | undefined, i = 0): any => message?.content[i];

const TICKET_TOOLS = ['tickets__close_ticket', 'tickets__lookup_ticket'];
const ticketTools = (names: string[] | undefined) =>
  (names ?? []).filter((n) => n.startsWith('tickets__')).sort();

describe('a provider registered by URL (MCP over streamable HTTP)', () => {
  test('its tool is called inside the reply: tool_use, tool_result with the server data, answer', async () => {
    const mcp = await mcpServer();
    const p = parley({ providers: [{ name: 'tickets', url: mcp.url }] });
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    const reply = await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-1"}');

    expect(reply.stopReason).toBe('end_turn');
    expect(reply.pendingTools).toEqual([]);
    expect(shape(reply.messages)).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'tool_use:tickets__lookup_ticket'],
      ['user', 2, 'tool_result'],
      ['assistant', 3, 'text'],
    ]);
    const use = block(reply.messages[1]);
    expect(use.input).toEqual({ id: 'T-1' });
    expect(block(reply.messages[2])).toEqual({
      type: 'tool_result',
      tool_use_id: use.id,
      is_error: false,
      content: [{ type: 'json', json: TICKETS['T-1'] }],
    });
    expect(block(reply.messages[3]).text).toContain('Tool tickets__lookup_ticket returned');
    expect(mcp.calls).toEqual([{ tool: 'lookup_ticket', args: { id: 'T-1' } }]);

    // The model was offered the provider's tools, named, described and with the server's JSON Schema.
    expect(ticketTools(p.toolsSeen[0])).toEqual(TICKET_TOOLS);
    const tools = await p.server.extensions!.gateway.tools('tickets');
    expect(tools.find((t) => t.toolName === 'lookup_ticket')).toMatchObject({
      name: 'tickets__lookup_ticket',
      description: '[tickets] Looks a ticket up by id.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
  });

  test('one MCP session is opened and reused across messages and sessions', async () => {
    const mcp = await mcpServer();
    const p = parley({ providers: [{ name: 'tickets', url: mcp.url }] });
    const a = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    const b = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    await p.send(a, '/mcp tickets.lookup_ticket {"id":"T-1"}');
    const reply = await p.send(b, '/mcp tickets.lookup_ticket {"id":"T-2"}');
    expect(block(reply.messages[2])).toMatchObject({ is_error: false, content: [{ json: TICKETS['T-2'] }] });
    expect(mcp.sessions).toBe(1);
    const sessionIds = new Set(
      mcp.requests.map((r) => r.headers['mcp-session-id']).filter((s) => s !== undefined),
    );
    expect(sessionIds.size).toBe(1);
  });

  test('headers configured on the provider reach the MCP server on every request', async () => {
    const mcp = await mcpServer();
    const p = parley({
      providers: [
        { name: 'tickets', url: mcp.url, headers: { authorization: 'Bearer x', 'x-team': 'support' } },
      ],
    });
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    const reply = await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-1"}');
    expect(block(reply.messages[2]).is_error).toBe(false);

    // initialize, initialized, tools/list and tools/call at least (plus the client's GET stream).
    const posts = mcp.requests.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(4);
    for (const request of mcp.requests) {
      expect(request.headers.authorization, request.method).toBe('Bearer x');
      expect(request.headers['x-team'], request.method).toBe('support');
    }
  });

  test('a tool that throws is an is_error tool_result the model sees; the session goes on', async () => {
    const mcp = await mcpServer();
    const p = parley({ providers: [{ name: 'tickets', url: mcp.url }] });
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    const failed = await p.send(id, '/mcp tickets.close_ticket {"id":"T-1"}');
    expect(failed.stopReason).toBe('end_turn');
    expect(shape(failed.messages)).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'tool_use:tickets__close_ticket'],
      ['user', 2, 'tool_result'],
      ['assistant', 3, 'text'],
    ]);
    const result = block(failed.messages[2]);
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toContain('Ticket T-1 cannot be closed: the ticket system is read-only');
    expect(block(failed.messages[3]).text).toMatch(/Tool tickets__close_ticket failed: .*read-only/);

    const next = await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-2"}');
    expect(shape(next.messages).map((m) => m[1])).toEqual([4, 5, 6, 7]);
    expect(block(next.messages[2])).toMatchObject({ is_error: false, content: [{ json: TICKETS['T-2'] }] });
    expect(mcp.calls.map((c) => c.tool)).toEqual(['close_ticket', 'lookup_ticket']);
    expect(mcp.sessions).toBe(1);
  });

  test('invalid input is an is_error result naming the field, checked by the MCP server', async () => {
    const mcp = await mcpServer();
    const p = parley({ providers: [{ name: 'tickets', url: mcp.url }] });
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    const reply = await p.send(id, '/mcp tickets.lookup_ticket {"id":42}');
    const result = block(reply.messages[2]);
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toMatch(/Input validation error.*id/s);
    expect(mcp.calls).toEqual([]);
  });

  test('closing the reference server closes the gateway connection', async () => {
    const mcp = await mcpServer();
    const p = parley({ providers: [{ name: 'tickets', url: mcp.url }] });
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-1"}');
    // The client's GET event stream is open while connected.
    expect(mcp.requests.map((r) => r.method)).toContain('GET');
    expect(mcp.openResponses).toBe(1);
    await p.server.close();
    await until(() => mcp.openResponses === 0);
    const result = await p.server.extensions!.gateway.call('tickets', 'lookup_ticket', { id: 'T-1' });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('The gateway is closed') });
  });
});

describe('a URL provider that forgets its MCP session (restart, expiry)', () => {
  test('the 404 is an error result for that call, and the gateway opens a new session', async () => {
    const mcp = await mcpServer();
    const p = parley({ providers: [{ name: 'tickets', url: mcp.url }] });
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-1"}');
    expect(mcp.sessions).toBe(1);

    await mcp.forgetSessions();
    const stale = await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-1"}');
    // The call went out on the old session, which the server answers with 404.
    expect(stale.stopReason).toBe('end_turn');
    expect(block(stale.messages[2])).toMatchObject({
      is_error: true,
      content: [
        { type: 'text', text: expect.stringContaining('Provider "tickets" (tool lookup_ticket) failed') },
      ],
    });
    // The stale connection was dropped: the reply's next model call listed the tools on a new session.
    expect(mcp.sessions).toBe(2);
    expect(ticketTools(p.toolsSeen.at(-1))).toEqual(TICKET_TOOLS);

    const next = await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-2"}');
    expect(block(next.messages[2])).toMatchObject({ is_error: false, content: [{ json: TICKETS['T-2'] }] });
    expect(mcp.sessions).toBe(2);
    expect(mcp.calls).toEqual([
      { tool: 'lookup_ticket', args: { id: 'T-1' } },
      { tool: 'lookup_ticket', args: { id: 'T-2' } },
    ]);
  });
});

describe('a URL provider from the config file (--config)', () => {
  test('is validated, registered and called like one given in code', async () => {
    const mcp = await mcpServer();
    const dir = await mkdtemp(join(tmpdir(), 'parley-http-provider-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'parley.json');
    await writeFile(
      file,
      JSON.stringify({
        providers: [{ name: 'tickets', url: mcp.url, headers: { Authorization: 'Bearer from-file' } }],
      }),
    );
    const p = parley(await loadExtensionsConfigFile(file));
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });
    const reply = await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-1"}');
    expect(shape(reply.messages)[1]).toEqual(['assistant', 1, 'tool_use:tickets__lookup_ticket']);
    expect(block(reply.messages[2])).toEqual({
      type: 'tool_result',
      tool_use_id: block(reply.messages[1]).id,
      is_error: false,
      content: [{ type: 'json', json: TICKETS['T-1'] }],
    });
    expect(mcp.requests.every((r) => r.headers.authorization === 'Bearer from-file')).toBe(true);
  });
});

describe('a URL where nothing listens', () => {
  test('the provider contributes no tools, calls are error results, and it is retried on the next use', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const p = parley({ providers: [{ name: 'tickets', url }] });
    // Registered by configuration, so a session may name it even while it is down.
    const id = await p.createSession({ extensions: { mcpProviders: ['tickets'] } });

    // Documented: "A provider that cannot be reached when the tools are listed contributes no tools
    // to that model call" and the reply goes on.
    const reply = await p.send(id, 'Is ticket T-1 open?');
    expect(reply.stopReason).toBe('end_turn');
    expect(shape(reply.messages)).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'text'],
    ]);
    expect(p.toolsSeen).toHaveLength(1);
    expect(ticketTools(p.toolsSeen[0])).toEqual([]);

    // Documented: a provider that cannot be reached is an is_error result, never a throw.
    const result = await p.server.extensions!.gateway.call('tickets', 'lookup_ticket', { id: 'T-1' });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^Provider "tickets" \(tool lookup_ticket\) failed: /),
    });

    // "... and is retried on the next one": once a server listens there, the next message works.
    const mcp = await mcpServer(port);
    const next = await p.send(id, '/mcp tickets.lookup_ticket {"id":"T-1"}');
    expect(ticketTools(p.toolsSeen[1])).toEqual(TICKET_TOOLS);
    expect(shape(next.messages)).toEqual([
      ['user', 2, 'text'],
      ['assistant', 3, 'tool_use:tickets__lookup_ticket'],
      ['user', 4, 'tool_result'],
      ['assistant', 5, 'text'],
    ]);
    expect(block(next.messages[2])).toMatchObject({ is_error: false, content: [{ json: TICKETS['T-1'] }] });
    expect(mcp.sessions).toBe(1);
  });
});
