import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createExtensionHost,
  type ExtensionsConfigError,
  INDEX_LANGUAGES,
  isExtensionsConfigError,
  loadExtensionsConfig,
  toExtensionHostOptions,
} from '@parley/reference-server';
import { afterEach, describe, expect, test } from 'vitest';
import { loadExtensionsConfigFile } from '../../src/extensions/load-files.js';
import { type ExtensionServer, extensionServer } from './helpers/extension-server.js';

function issuesOf(json: unknown): string[] {
  try {
    loadExtensionsConfig(json);
  } catch (error) {
    if (isExtensionsConfigError(error)) return (error as ExtensionsConfigError).issues;
    throw error;
  }
  return [];
}

const GERMAN_DOCUMENTS = [
  { id: 'versand', text: 'Der Versand für Bestellungen dauert zwei Werktage.' },
  { id: 'rueckgabe', text: 'Die Rückgabe ist für Kunden kostenlos.' },
];

describe('language of a configured index', () => {
  test('is set per index: a German index leaves out German stop words and stems German words', async () => {
    const config = loadExtensionsConfig({
      indexes: { de: { documents: GERMAN_DOCUMENTS, language: 'german' } },
    });
    const host = createExtensionHost(toExtensionHostOptions(config));
    expect(host.retriever.get('de')?.language).toBe('german');
    expect(await host.retriever.search('für', { indexes: ['de'] })).toEqual([]);
    const hits = await host.retriever.search('Bestellung', { indexes: ['de'] });
    expect(hits.map((h) => h.id)).toEqual(['versand']);
  });

  test('defaults to English for inline documents in either form', () => {
    const config = loadExtensionsConfig({
      indexes: { list: [{ id: 'a', text: 'x' }], object: { documents: [{ id: 'b', text: 'y' }] } },
    });
    const host = createExtensionHost(toExtensionHostOptions(config));
    expect(host.retriever.get('list')?.language).toBe('english');
    expect(host.retriever.get('object')?.language).toBe('english');
  });

  test('an unknown language is a config error naming the index and the supported languages', () => {
    const [issue, ...rest] = issuesOf({ indexes: { kb: { documents: [], language: 'klingon' } } });
    expect(rest).toEqual([]);
    expect(issue).toBe(
      `indexes.kb.language: unknown language "klingon" (supported: ${INDEX_LANGUAGES.join(', ')})`,
    );
    expect(issue).toContain('german');
    expect(issue).toContain('japanese');
  });

  test('the supported languages include German, French, Japanese and Mandarin', () => {
    expect(INDEX_LANGUAGES).toEqual(
      expect.arrayContaining(['english', 'german', 'french', 'japanese', 'mandarin']),
    );
  });

  describe('from a file', () => {
    let dir: string | undefined;
    afterEach(async () => {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    test('an index read from a file takes the language given beside the file', async () => {
      dir = await mkdtemp(join(tmpdir(), 'parley-language-'));
      await writeFile(
        join(dir, 'faq.jsonl'),
        '{"id":"f1","text":"L\'annulation d\'une réservation est gratuite."}\n',
      );
      await writeFile(
        join(dir, 'parley.json'),
        JSON.stringify({ indexes: { faq: { file: 'faq.jsonl', language: 'french' } } }),
      );
      const host = createExtensionHost(await loadExtensionsConfigFile(join(dir, 'parley.json')));
      expect(host.retriever.get('faq')?.language).toBe('french');
      const hits = await host.retriever.search('annulation', { indexes: ['faq'] });
      expect(hits.map((h) => h.id)).toEqual(['f1']);
    });
  });
});

describe('/search on the built-in handbook (English and German documents)', () => {
  let server: ExtensionServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  async function searchIds(query: string): Promise<string[]> {
    server = extensionServer();
    const id = await server.createSession({ extensions: { rag: { maxResults: 50 } } });
    const reply = await server.send(id, `/search ${query}`);
    // biome-ignore lint/suspicious/noExplicitAny: reading the tool result loosely
    const result: any = reply.messages[2]?.content[0];
    expect(result.is_error).toBe(false);
    return result.content[0].json.results.map((r: { id: string }) => r.id);
  }

  test('a German query matches only documents containing its word', async () => {
    expect(await searchIds('Rückerstattung')).toEqual(['refund-policy-de']);
  });

  test('German stop words do not match', async () => {
    expect(await searchIds('für')).toEqual([]);
  });
});
