import {
  createSearchDocumentsTool,
  type Document,
  HANDBOOK_DOCUMENTS,
  PREFETCH_JSON_KEY,
  prefetchContent,
  Retriever,
} from '@parley/reference-server';
import { describe, expect, test } from 'vitest';

const many = (prefix: string, n: number): Document[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(2, '0')}`,
    text: `invoice ${i}`,
    tags: {},
  }));

const context = { sessionId: 'sess_1', signal: new AbortController().signal };

describe('maxResults', () => {
  const retriever = new Retriever({ a: many('a', 60) });

  test('defaults to 5 per query', async () => {
    expect(await retriever.search('invoice')).toHaveLength(5);
  });

  test('bounds each query', async () => {
    expect(await retriever.search('invoice', { maxResults: 1 })).toHaveLength(1);
    expect(await retriever.search('invoice', { maxResults: 12 })).toHaveLength(12);
  });

  test('goes up to 50', async () => {
    expect(await retriever.search('invoice', { maxResults: 50 })).toHaveLength(50);
  });

  test('bounds the whole query, not each index', async () => {
    const two = new Retriever({ a: many('a', 10), b: many('b', 10) });
    expect(await two.search('invoice', { maxResults: 4 })).toHaveLength(4);
  });

  test('returns fewer when fewer documents match', async () => {
    const small = new Retriever({ a: many('a', 2) });
    expect(await small.search('invoice', { maxResults: 10 })).toHaveLength(2);
  });
});

describe('indexes', () => {
  const retriever = new Retriever({
    alpha: [{ id: 'a1', text: 'shared term alpha', tags: {} }],
    beta: [{ id: 'b1', text: 'shared term beta', tags: {} }],
    gamma: [{ id: 'g1', text: 'shared term gamma', tags: {} }],
  });
  const indexesOf = async (indexes?: string[]) =>
    (await retriever.search('shared', indexes === undefined ? {} : { indexes })).map((h) => h.index).sort();

  test('omitted searches every registered index', async () => {
    expect(await indexesOf()).toEqual(['alpha', 'beta', 'gamma']);
  });

  test('a list searches only the named indexes', async () => {
    expect(await indexesOf(['beta'])).toEqual(['beta']);
    expect(await indexesOf(['alpha', 'gamma'])).toEqual(['alpha', 'gamma']);
  });

  test('an empty list searches nothing', async () => {
    expect(await indexesOf([])).toEqual([]);
  });

  test('a name listed twice is searched once', async () => {
    expect(await indexesOf(['beta', 'beta'])).toEqual(['beta']);
  });

  test('unknownIndexes names what is not registered', () => {
    expect(retriever.unknownIndexes({ indexes: ['alpha', 'nope'] })).toEqual(['nope']);
    expect(retriever.names).toEqual(['alpha', 'beta', 'gamma']);
  });
});

describe('ranking', () => {
  test('hits are ordered by BM25 score, best first, and carry id, index, title, score, tags and text', async () => {
    const retriever = new Retriever({ handbook: HANDBOOK_DOCUMENTS });
    const hits = await retriever.search('What is the refund policy?', { maxResults: 3 });
    expect(hits[0]).toMatchObject({
      id: 'refund-policy',
      index: 'handbook',
      title: 'Refund policy',
      tags: { lang: ['en'], team: ['sales', 'support'], visibility: ['public'] },
    });
    expect(hits[0]?.text).toContain('30 days');
    const scores = hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((s) => s > 0)).toBe(true);
  });

  test('terms match as prefixes ("refund" finds "refunded")', async () => {
    const retriever = new Retriever({ x: [{ id: 'r', text: 'It was refunded yesterday', tags: {} }] });
    expect((await retriever.search('refund')).map((h) => h.id)).toEqual(['r']);
  });

  test('a query of stop words only, or of no words, finds nothing', async () => {
    const retriever = new Retriever({ handbook: HANDBOOK_DOCUMENTS });
    expect(await retriever.search('what is the')).toEqual([]);
    expect(await retriever.search('   ')).toEqual([]);
  });

  test('a query that matches nothing finds nothing', async () => {
    const retriever = new Retriever({ handbook: HANDBOOK_DOCUMENTS });
    expect(await retriever.search('xylophone')).toEqual([]);
  });
});

describe('search_documents tool', () => {
  const retriever = new Retriever({ handbook: HANDBOOK_DOCUMENTS });

  test('returns one JSON part with the results and their ids, tags and scores', async () => {
    const tool = createSearchDocumentsTool(retriever, {
      maxResults: 2,
      tagFilter: { include: { lang: ['de'] } },
    });
    expect(tool.name).toBe('search_documents');
    const result = await tool.call({ query: 'Rückerstattung Lieferung' }, context);
    expect(result.isError).toBe(false);
    const part = result.content[0] as { type: 'json'; json: { query: string; results: Document[] } };
    expect(part.type).toBe('json');
    expect(part.json.query).toBe('Rückerstattung Lieferung');
    expect(part.json.results.map((r) => r.id)).toEqual(['refund-policy-de']);
    expect(part.json.results[0]).toMatchObject({ index: 'handbook', tags: { lang: ['de'] } });
    expect(part.json.results[0]).toHaveProperty('score');
  });

  test('invalid input is an error result naming the field', async () => {
    const tool = createSearchDocumentsTool(retriever, {});
    const missing = await tool.call({}, context);
    expect(missing.isError).toBe(true);
    expect(missing.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('query') });
    expect((await tool.call({ query: '  ' }, context)).isError).toBe(true);
    expect((await tool.call({ query: 'x', extra: 1 }, context)).isError).toBe(true);
  });

  test('its description names the searched indexes', () => {
    expect(createSearchDocumentsTool(retriever, {}).description).toContain('"handbook"');
  });
});

describe('prefetch content', () => {
  test('is a text block listing each document and a text block holding the JSON', async () => {
    const retriever = new Retriever({ handbook: HANDBOOK_DOCUMENTS });
    const hits = await retriever.search('support hours phone', { maxResults: 2 });
    const [listing, json] = prefetchContent('support hours phone', hits);
    expect(listing).toMatchObject({ type: 'text' });
    expect((listing as { text: string }).text).toContain('handbook/support-hours');
    expect((listing as { text: string }).text).toContain('visibility=public');
    const data = JSON.parse((json as { text: string }).text)[PREFETCH_JSON_KEY];
    expect(data.query).toBe('support hours phone');
    expect(data.documents[0]).toEqual({
      id: 'support-hours',
      index: 'handbook',
      title: 'Support hours',
      score: hits[0]?.score,
      tags: { lang: ['en'], team: ['support'], visibility: ['public'] },
    });
  });
});
