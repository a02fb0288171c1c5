import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createReferenceServer, type ReferenceServer, startServer } from '@parley/reference-server';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, paths } from './openapi-types.js';
import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from './render-openapi-types.js';

type Schemas = components['schemas'];
type Message = Schemas['Message'];

const TOKEN = 'parley-demo-token';

function textOf(message: Message | undefined): string {
  return (message?.content ?? []).map((block) => ('text' in block ? String(block.text) : '')).join('');
}

/** Two ways to reach the reference server: its fetch injected, or real HTTP. */
const TRANSPORTS = ['injected fetch', 'http'] as const;

describe('the OpenAPI document', () => {
  it('generates the committed client types (openapi-typescript; run `pnpm openapi` after a schema change)', async () => {
    const committed = readFileSync(OPENAPI_TYPES_FILE, 'utf8');
    expect(committed, `${fileURLToPath(OPENAPI_TYPES_FILE)} is stale: run \`pnpm openapi\``).toBe(
      await renderOpenApiTypes(),
    );
  });
});

describe.each(TRANSPORTS)('a client generated from the OpenAPI document [%s]', (transport) => {
  let server: ReferenceServer;
  /** Where the clients connect: a base URL, and the server's fetch when it is injected. */
  let connection: { baseUrl: string; fetch?: (request: Request) => Promise<Response> };
  let client: ReturnType<typeof createClient<paths>>;
  let close = async () => {};

  beforeAll(async () => {
    if (transport === 'http') {
      const running = await startServer({ port: 0 });
      server = running.server;
      connection = { baseUrl: running.url };
      close = () => running.close();
    } else {
      server = createReferenceServer();
      connection = { baseUrl: 'http://parley.test', fetch: server.fetch };
      close = () => server.close();
    }
    client = createClient<paths>({ ...connection, headers: { authorization: `Bearer ${TOKEN}` } });
  });
  afterAll(() => close());

  it('runs a conversation with a tool call: create, send, heartbeat, respond, resume (streamed), export', async () => {
    const created = await client.POST('/v1/sessions', { body: { customizations: { agentId: 'weather' } } });
    expect(created.response.status).toBe(201);
    const sessionId = created.data?.sessionId ?? '';
    const path = { sessionId };

    const sent = await client.POST('/v1/messages/{sessionId}', {
      params: { path },
      body: { content: '/tool get_weather {"city":"Paris"}\n/then Sunny, 21 degrees in Paris.' },
    });
    expect(sent.data?.stopReason).toBe('tool_use');
    const [pending] = sent.data?.pendingTools ?? [];
    expect(pending).toMatchObject({ name: 'get_weather', input: { city: 'Paris' }, state: 'PENDING' });
    const call = { sessionId, requestId: pending?.requestId ?? '' };

    // The generated error type: the body is the protocol's error body.
    const early = await client.POST('/v1/messages/{sessionId}', {
      params: { path },
      body: { content: 'next' },
    });
    expect(early.response.status).toBe(409);
    expect(early.error?.error.code).toBe('tool_calls_open');

    const beat = await client.POST('/v1/tools/request/{sessionId}/{requestId}/heartbeat', {
      params: { path: call },
      body: { state: 'PROCESSING', heartbeat: Date.now() },
    });
    expect(beat.response.status).toBe(200);
    const seen = await client.GET('/v1/tools/request/{sessionId}/{requestId}', { params: { path: call } });
    expect(seen.data?.state).toBe('PROCESSING');

    const responded = await client.POST('/v1/tools/response/{sessionId}/{requestId}', {
      params: { path: call },
      body: { response: { state: 'COMPLETE', temperature: 21 } },
    });
    expect(responded.response.status).toBe(200);

    // Resume through the stream endpoint: the body is one JSON document of events.
    const resumed = await client.POST('/v1/messages/{sessionId}/stream', {
      params: { path },
      body: {},
      parseAs: 'text',
    });
    expect(resumed.response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = JSON.parse(resumed.data ?? '') as Schemas['StreamBody'];
    const last = body.events.at(-1) as Schemas['ReplyStopEvent'];
    expect(last.replyStop.stopReason).toBe('end_turn');
    expect(textOf(last.replyStop.messages.at(-1))).toBe('Sunny, 21 degrees in Paris.');

    const exported = await client.GET('/v1/messages/{sessionId}', {
      params: { path, query: { includeDeleted: false } },
    });
    const messages = exported.data?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[2]?.content[0]).toMatchObject({ type: 'tool_result', is_error: false });
    expect(textOf(messages.at(-1))).toBe('Sunny, 21 degrees in Paris.');
    expect(server.sessionCount).toBe(1);
  });

  it('reads the document itself without a token', async () => {
    const anonymous = createClient<paths>(connection);
    const { data, response } = await anonymous.GET('/openapi.json');
    expect(response.status).toBe(200);
    expect(data?.openapi).toMatch(/^3\.1\./);
  });
});
