import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createExtensionHost,
  type ExtensionsConfigError,
  isExtensionsConfigError,
  loadExtensionsConfig,
  toExtensionHostOptions,
} from '@parley/reference-server';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadExtensionsConfigFile } from '../../src/extensions/load-files.js';

function issuesOf(json: unknown): string[] {
  try {
    loadExtensionsConfig(json);
  } catch (error) {
    if (isExtensionsConfigError(error)) return (error as ExtensionsConfigError).issues;
    throw error;
  }
  throw new Error('expected an ExtensionsConfigError');
}

describe('loadExtensionsConfig', () => {
  test('accepts an empty config and JSON text', () => {
    expect(loadExtensionsConfig({})).toEqual({});
    expect(loadExtensionsConfig('{"quotas":[{"product":"checkout","messagesPerMinute":2}]}')).toEqual({
      quotas: [{ product: 'checkout', messagesPerMinute: 2 }],
    });
  });

  test('schema errors name the field', () => {
    expect(issuesOf({ agents: { bot: { systemPrompt: 3 } } })[0]).toMatch(/^agents\.bot\.systemPrompt: /);
    expect(issuesOf({ quotas: [{ product: 'x', messagesPerMinute: 0 }] })[0]).toMatch(
      /^quotas\.0\.messagesPerMinute: /,
    );
    expect(issuesOf({ agents: { bot: { systemPrompt: 'x', rag: { maxResults: 51 } } } })[0]).toMatch(
      /^agents\.bot\.rag\.maxResults: /,
    );
    expect(issuesOf({ colour: 'red' })[0]).toContain('colour');
    expect(issuesOf('{not json')[0]).toMatch(/^not JSON/);
  });

  test('a key named __proto__ (JSON text keeps it, validation could not) is an issue naming its path', () => {
    expect(issuesOf('{"agents":{"__proto__":{"systemPrompt":"x"}}}')).toEqual([
      'agents.__proto__: a key named "__proto__" is not accepted here (it could not be kept)',
    ]);
    expect(
      issuesOf(
        '{"builtins":false,"defaultAgentId":"a","agents":{"a":{"systemPrompt":"x"}},"providers":[{"name":"crm","stdio":{"command":"crm","env":{"__proto__":"x"}}}]}',
      ),
    ).toEqual([
      'providers.0.stdio.env.__proto__: a key named "__proto__" is not accepted here (it could not be kept)',
    ]);
  });

  test('references to unknown agents, providers and indexes are reported', () => {
    expect(
      issuesOf({
        defaultAgentId: 'nobody',
        agents: { bot: { systemPrompt: 'x', mcpProviders: ['crm'], rag: { indexes: ['wiki'] } } },
      }),
    ).toEqual([
      'defaultAgentId: no agent "nobody"',
      'agents.bot.mcpProviders.0: unknown provider "crm"',
      'agents.bot.rag.indexes.0: unknown index "wiki"',
    ]);
  });

  test('configured providers and indexes can be referenced', () => {
    const config = loadExtensionsConfig({
      agents: { bot: { systemPrompt: 'x', mcpProviders: ['crm'], rag: { indexes: ['wiki'] } } },
      providers: [{ name: 'crm', url: 'http://localhost:9000/mcp' }],
      indexes: { wiki: [{ id: 'w1', text: 'wiki page', tags: { lang: 'en' } }] },
      defaultAgentId: 'bot',
    });
    const host = createExtensionHost(toExtensionHostOptions(config));
    expect(host.catalogue.defaultAgentId).toBe('bot');
    expect(host.gateway.names).toEqual(['erp', 'crm']);
    expect(host.retriever.names).toEqual(['handbook', 'wiki']);
    expect(host.retriever.get('wiki')?.documents[0]?.tags).toEqual({ lang: ['en'] });
  });

  test('builtins: false drops the built-in agents, index and provider', () => {
    expect(issuesOf({ builtins: false })).toEqual(['defaultAgentId: required when builtins is false']);
    const config = loadExtensionsConfig({
      builtins: false,
      agents: { only: { systemPrompt: 'x' } },
      defaultAgentId: 'only',
    });
    const host = createExtensionHost(toExtensionHostOptions(config));
    expect(Object.keys(host.catalogue.agents)).toEqual(['only']);
    expect(host.gateway.names).toEqual([]);
    expect(host.retriever.names).toEqual([]);
  });

  test('provider entries are a stdio command or an http(s) URL with a valid name', () => {
    expect(issuesOf({ providers: [{ name: 'x', url: 'ftp://host' }] }).length).toBeGreaterThan(0);
    expect(issuesOf({ providers: [{ name: 'a__b', stdio: { command: 'node' } }] }).join()).toContain(
      'providers.0.name',
    );
    expect(issuesOf({ providers: [{ name: 'erp', stdio: { command: 'node' } }] })).toEqual([
      'providers.0.name: "erp" is a built-in provider',
    ]);
  });
});

describe('loadExtensionsConfigFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('reads document files relative to the config file', async () => {
    await writeFile(join(dir, 'kb.jsonl'), '{"id":"k1","text":"kubernetes runbook","tags":{"team":"eng"}}\n');
    await writeFile(join(dir, 'parley.json'), JSON.stringify({ indexes: { kb: { file: 'kb.jsonl' } } }));
    const host = createExtensionHost(await loadExtensionsConfigFile(join(dir, 'parley.json')));
    const hits = await host.retriever.search('runbook', { indexes: ['kb'] });
    expect(hits.map((h) => h.id)).toEqual(['k1']);
  });

  test('a bad document file is reported with its path and line', async () => {
    await writeFile(join(dir, 'kb.jsonl'), '{"id":"k1","text":"ok"}\n{"id":"k2"}\n');
    await writeFile(join(dir, 'parley.json'), JSON.stringify({ indexes: { kb: { file: 'kb.jsonl' } } }));
    await expect(loadExtensionsConfigFile(join(dir, 'parley.json'))).rejects.toThrow(
      /kb\.jsonl:\n {2}line 2: text/,
    );
  });

  test('a missing config file is an ExtensionsConfigError', async () => {
    await expect(loadExtensionsConfigFile(join(dir, 'missing.json'))).rejects.toSatisfy(
      isExtensionsConfigError,
    );
  });

  test('a stdio provider from the config file is started and called over MCP', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/echo-mcp-server.mjs', import.meta.url));
    await writeFile(
      join(dir, 'parley.json'),
      JSON.stringify({
        providers: [{ name: 'echo', stdio: { command: process.execPath, args: [fixture] } }],
      }),
    );
    const host = createExtensionHost(await loadExtensionsConfigFile(join(dir, 'parley.json')));
    try {
      const tools = await host.serverTools({
        sessionId: 's',
        userName: 'u',
        customizations: { extensions: { mcpProviders: ['echo'] } },
        agentId: 'default',
        modelId: undefined,
      });
      const shout = tools.find((t) => t.name === 'echo__shout');
      const result = await shout?.call(
        { word: 'hello' },
        { sessionId: 's', signal: new AbortController().signal },
      );
      expect(result).toEqual({ isError: false, content: [{ type: 'text', text: 'HELLO' }] });
    } finally {
      await host.close();
    }
  });
});
