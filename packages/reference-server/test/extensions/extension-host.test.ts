import type { Customizations } from '@parley/protocol';
import type { SessionInfo } from '@parley/reference-server';
import {
  createExtensionHost,
  isHttpError,
  ManualClock,
  type ParleyExtensionHost,
  PREFETCH_JSON_KEY,
} from '@parley/reference-server';
import { afterEach, describe, expect, test } from 'vitest';
import { testProvider } from './helpers/test-provider.js';

const hosts: ParleyExtensionHost[] = [];
function host(...args: Parameters<typeof createExtensionHost>): ParleyExtensionHost {
  const created = createExtensionHost(...args);
  hosts.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

const session = (customizations: Customizations, agentId: string | undefined = 'default'): SessionInfo => ({
  sessionId: 'sess_1',
  userName: 'alice',
  customizations,
  agentId,
  modelId: undefined,
});

function thrown(run: () => unknown): { code: string; status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (isHttpError(error)) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected an HttpError');
}

describe('validateSession', () => {
  test('an unknown provider is 400 unknown_provider naming the field', () => {
    expect(thrown(() => host().validateSession({ extensions: { mcpProviders: ['erp', 'crm'] } }))).toEqual({
      code: 'unknown_provider',
      status: 400,
      message: 'customizations.extensions.mcpProviders.1: unknown provider "crm" (registered: erp)',
    });
  });

  test('an unknown index is 400 unknown_index naming the field', () => {
    expect(
      thrown(() => host().validateSession({ extensions: { rag: { indexes: ['handbook', 'wiki'] } } })),
    ).toEqual({
      code: 'unknown_index',
      status: 400,
      message: 'customizations.extensions.rag.indexes.1: unknown index "wiki" (registered: handbook)',
    });
  });

  test('registered names, an empty index list and no extensions pass', () => {
    const h = host({
      indexes: { wiki: [{ id: 'w', text: 'wiki page' }] },
      providers: [testProvider().config],
    });
    expect(() =>
      h.validateSession({
        extensions: { mcpProviders: ['erp', 'test'], rag: { indexes: ['handbook', 'wiki'] } },
      }),
    ).not.toThrow();
    expect(() => h.validateSession({ extensions: { rag: { indexes: [] } } })).not.toThrow();
    expect(() => h.validateSession({})).not.toThrow();
  });

  test('without built-ins, erp and handbook are unknown', () => {
    const h = host({ builtins: false });
    expect(thrown(() => h.validateSession({ extensions: { mcpProviders: ['erp'] } })).code).toBe(
      'unknown_provider',
    );
    expect(thrown(() => h.validateSession({ extensions: { rag: { indexes: ['handbook'] } } })).code).toBe(
      'unknown_index',
    );
  });
});

describe('serverTools', () => {
  test('none without rag or providers', async () => {
    expect(await host().serverTools(session({}))).toEqual([]);
  });

  test('search_documents when rag is set', async () => {
    const tools = await host().serverTools(session({ extensions: { rag: {} } }));
    expect(tools.map((t) => t.name)).toEqual(['search_documents']);
  });

  test('no search_documents when rag.indexes is empty (nothing to search)', async () => {
    expect(await host().serverTools(session({ extensions: { rag: { indexes: [] } } }))).toEqual([]);
  });

  test('provider tools for each mcpProviders entry', async () => {
    const tools = await host({ providers: [testProvider().config] }).serverTools(
      session({ extensions: { mcpProviders: ['erp', 'test'] } }),
    );
    const names = tools.map((t) => t.name);
    expect(names).toContain('erp__get_customer');
    expect(names).toContain('test__echo');
  });

  test("an agent's providers and rag apply to its sessions", async () => {
    const h = host();
    const support = await h.serverTools(session({ agentId: 'support' }, 'support'));
    expect(support.map((t) => t.name)).toEqual(['search_documents']);
    const erp = await h.serverTools(session({ agentId: 'erp-assistant' }, 'erp-assistant'));
    expect(erp.map((t) => t.name)).toContain('erp__create_order');
  });

  test("a session's rag replaces its agent's; providers add up", () => {
    const h = host();
    expect(
      h.resolve({
        customizations: { agentId: 'support', extensions: { rag: { maxResults: 9 }, mcpProviders: ['erp'] } },
        agentId: 'support',
      }),
    ).toEqual({ rag: { maxResults: 9 }, mcpProviders: ['erp'] });
  });

  test('the search tool applies the session tag filter and maxResults', async () => {
    const [tool] = await host().serverTools(
      session({ extensions: { rag: { maxResults: 1, tagFilter: { exclude: { lang: ['en'] } } } } }),
    );
    const result = await tool?.call(
      { query: 'Lieferung Tage' },
      { sessionId: 's', signal: new AbortController().signal },
    );
    const json = (result!.content[0] as { json: { results: { id: string; tags: { lang: string[] } }[] } })
      .json;
    expect(json.results).toHaveLength(1);
    expect(json.results[0]?.tags.lang).toEqual(['de']);
  });
});

describe('prefetch', () => {
  const signal = new AbortController().signal;

  test('with prefetchEnabled, returns the system message content for the first user text', async () => {
    const content = await host().prefetch(
      session({ extensions: { rag: { prefetchEnabled: true, maxResults: 2 } } }),
      'How long does shipping take?',
      signal,
    );
    expect(content).toHaveLength(2);
    const data = JSON.parse((content![1] as { text: string }).text)[PREFETCH_JSON_KEY];
    expect(data.query).toBe('How long does shipping take?');
    expect(data.documents.map((d: { id: string }) => d.id)).toContain('shipping-times');
  });

  test('nothing without prefetchEnabled, or when nothing matches', async () => {
    const h = host();
    expect(await h.prefetch(session({ extensions: { rag: {} } }), 'shipping', signal)).toBeUndefined();
    expect(
      await h.prefetch(session({ extensions: { rag: { prefetchEnabled: true } } }), 'xylophone', signal),
    ).toBeUndefined();
  });
});

describe('checkQuota', () => {
  test("counts sends per session's product", async () => {
    const clock = new ManualClock(0);
    const h = host({ clock, quotas: [{ product: 'checkout', messagesPerMinute: 1 }] });
    h.checkQuota(session({ product: 'checkout' }));
    const refused = thrown(() => h.checkQuota(session({ product: 'checkout' })));
    expect(refused).toMatchObject({ code: 'quota_exceeded', status: 429 });
    h.checkQuota(session({ product: 'other' }));
    await clock.advance(60_000);
    h.checkQuota(session({ product: 'checkout' }));
  });
});

describe('catalogue', () => {
  test('has the built-in agents, a default agent and models, extendable by options', () => {
    const h = host({ agents: { mine: { systemPrompt: 'Mine.' } }, models: { 'my-model': {} } });
    expect(Object.keys(h.catalogue.agents)).toEqual(
      expect.arrayContaining(['default', 'support', 'erp-assistant', 'mine']),
    );
    expect(h.catalogue.defaultAgentId).toBe('default');
    expect(h.catalogue.models).toHaveProperty('my-model');
    expect(h.catalogue.models).toHaveProperty('parley-stand-in-1');
  });
});

describe('prefetches: whether prefetch may inject anything for a session', () => {
  test('true only for a session whose retrieval has prefetchEnabled', () => {
    const h = host();
    expect(h.prefetches(session({ extensions: { rag: { prefetchEnabled: true } } }))).toBe(true);
    expect(h.prefetches(session({ extensions: { rag: {} } }))).toBe(false);
    expect(h.prefetches(session({}))).toBe(false);
  });
});
