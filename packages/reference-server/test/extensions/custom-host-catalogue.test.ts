import { createExtensionHost, createReferenceServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';

const headers = { authorization: 'Bearer parley-demo-token' };

async function create(server: ReturnType<typeof createReferenceServer>, customizations: unknown) {
  return server.fetch(
    new Request('http://parley.test/v1/sessions', {
      method: 'POST',
      headers,
      body: JSON.stringify({ customizations }),
    }),
  );
}

describe('a custom extension host', () => {
  it('brings its own agent catalogue and providers to the server', async () => {
    const host = createExtensionHost({ agents: { mine: { systemPrompt: 'Mine.' } } });
    const server = createReferenceServer({ extensionHost: host });
    expect((await create(server, { agentId: 'support' })).status).toBe(201);
    expect((await create(server, { agentId: 'mine' })).status).toBe(201);
    expect((await create(server, { extensions: { mcpProviders: ['erp'] } })).status).toBe(201);
    expect((await create(server, { agentId: 'nobody' })).status).toBe(400);
    await server.close();
  });

  it('extensions: false turns the built-in host off (no extension agents)', async () => {
    const server = createReferenceServer({ extensions: false });
    expect(server.extensions).toBeUndefined();
    expect((await create(server, { agentId: 'support' })).status).toBe(400);
    expect((await create(server, { agentId: 'default' })).status).toBe(201);
  });
});
