import { type DocumentInput, ManualClock, PREFETCH_JSON_KEY, startServer } from '@parley/reference-server';
import {
  BadRequestError,
  type MessageReply,
  Parley,
  type RagConfig,
  type StreamEventItem,
} from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { harness, jsonOf, messageText, shape, toolResults, toolUses } from './harness.js';

/**
 * A small index where every document mentions "widget", so the query matches them all and the tag
 * filter alone decides what comes back. `d6` has no `team` tag.
 */
const KB: DocumentInput[] = [
  {
    id: 'd1',
    title: 'Widget pricing',
    text: 'The widget costs ten euros.',
    tags: { lang: ['en'], team: ['sales'] },
  },
  {
    id: 'd2',
    title: 'Widget repair',
    text: 'Send a broken widget back to support.',
    tags: { lang: ['en'], team: ['support'] },
  },
  {
    id: 'd3',
    title: 'Widget Preis',
    text: 'Das widget kostet zehn Euro.',
    tags: { lang: ['de'], team: ['sales'] },
  },
  {
    id: 'd4',
    title: 'Widget roadmap',
    text: 'The next widget ships with a faster motor.',
    tags: { lang: ['en'], team: ['sales', 'eng'] },
  },
  {
    id: 'd5',
    title: 'Widget Firmware',
    text: 'Die widget Firmware wird intern gebaut.',
    tags: { lang: ['de'], team: ['eng'], visibility: ['internal'] },
  },
  { id: 'd6', title: 'Widget history', text: 'The first widget was made in 1999.', tags: { lang: ['en'] } },
];
const ALL = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];

function setup() {
  return harness({ indexes: { kb: KB } });
}

type Setup = ReturnType<typeof setup>;

/** Creates a session searching `kb` with `rag` on top, runs `/search widget`, returns the result ids. */
async function searchIds(s: Setup, rag: RagConfig, query = 'widget'): Promise<string[]> {
  const { sessionId } = await s.client.sessions.create({
    customizations: { extensions: { rag: { indexes: ['kb'], maxResults: 50, ...rag } } },
  });
  const reply = await s.client.messages.send(sessionId, { content: `/search ${query}` });
  expect(reply.stopReason).toBe('end_turn');
  const result = toolResults(reply.messages[2])[0];
  expect(result?.is_error).toBe(false);
  const json = jsonOf(result);
  expect(json.query).toBe(query);
  return (json.results as { id: string }[]).map((r) => r.id).sort();
}

describe('tagFilter, through the SDK', () => {
  test('no tagFilter keeps every matching document', async () => {
    expect(await searchIds(setup(), {})).toEqual(ALL);
  });

  test('include with one tag keeps the documents carrying one of its values', async () => {
    expect(await searchIds(setup(), { tagFilter: { include: { lang: ['de'] } } })).toEqual(['d3', 'd5']);
  });

  test('include values of one tag are OR-ed', async () => {
    expect(await searchIds(setup(), { tagFilter: { include: { team: ['support', 'eng'] } } })).toEqual([
      'd2',
      'd4',
      'd5',
    ]);
  });

  test('include with several tags is AND across tags (OR within values); a document without the tag fails', async () => {
    // lang=en AND team in {sales, eng}: d6 (en, no team) and d2 (support) fail, d3/d5 are German.
    expect(
      await searchIds(setup(), { tagFilter: { include: { lang: ['en'], team: ['sales', 'eng'] } } }),
    ).toEqual(['d1', 'd4']);
  });

  test('exclude drops documents carrying any listed value; documents without the tag stay', async () => {
    expect(await searchIds(setup(), { tagFilter: { exclude: { team: ['sales'] } } })).toEqual([
      'd2',
      'd5',
      'd6',
    ]);
  });

  test('exclude across several tags drops a document hit by any of them', async () => {
    expect(await searchIds(setup(), { tagFilter: { exclude: { lang: ['de'], team: ['support'] } } })).toEqual(
      ['d1', 'd4', 'd6'],
    );
  });

  test('include and exclude together: exclude wins', async () => {
    // include keeps the sales documents d1, d3, d4; exclude drops the German d3.
    expect(
      await searchIds(setup(), { tagFilter: { include: { team: ['sales'] }, exclude: { lang: ['de'] } } }),
    ).toEqual(['d1', 'd4']);
    // A document both included and excluded by the same tag is dropped.
    expect(
      await searchIds(setup(), { tagFilter: { include: { team: ['eng'] }, exclude: { team: ['eng'] } } }),
    ).toEqual([]);
  });

  test('an empty include list accepts nothing, so it matches no document', async () => {
    expect(await searchIds(setup(), { tagFilter: { include: { lang: [] } } })).toEqual([]);
  });

  test('an empty include object filters nothing', async () => {
    expect(await searchIds(setup(), { tagFilter: { include: {} } })).toEqual(ALL);
  });

  test('an empty exclude list drops nothing', async () => {
    expect(await searchIds(setup(), { tagFilter: { exclude: { lang: [] } } })).toEqual(ALL);
  });

  test('include on an unknown tag matches nothing', async () => {
    expect(await searchIds(setup(), { tagFilter: { include: { region: ['emea'] } } })).toEqual([]);
  });

  test('exclude on an unknown tag, or an unknown value, drops nothing', async () => {
    expect(await searchIds(setup(), { tagFilter: { exclude: { region: ['emea'] } } })).toEqual(ALL);
    expect(await searchIds(setup(), { tagFilter: { exclude: { lang: ['fr'] } } })).toEqual(ALL);
  });

  test('values compare exactly (case-sensitive)', async () => {
    expect(await searchIds(setup(), { tagFilter: { include: { lang: ['EN'] } } })).toEqual([]);
  });

  test('a malformed tagFilter is a BadRequestError at session creation', async () => {
    const s = setup();
    const error = await s.client.sessions
      .create({
        customizations: {
          // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed on the wire
          extensions: { rag: { tagFilter: { include: { lang: 'en' } } as any } },
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
  });
});

describe('maxResults, through the SDK', () => {
  test('defaults to 5 results per query', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({
      customizations: { extensions: { rag: { indexes: ['kb'] } } },
    });
    const reply = await s.client.messages.send(sessionId, { content: '/search widget' });
    expect(jsonOf(toolResults(reply.messages[2])[0]).results).toHaveLength(5); // 6 documents match
  });

  test('an explicit maxResults bounds the results, best first', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({
      customizations: { extensions: { rag: { indexes: ['kb'], maxResults: 2 } } },
    });
    const reply = await s.client.messages.send(sessionId, { content: '/search widget motor' });
    const results = jsonOf(toolResults(reply.messages[2])[0]).results as { id: string; score: number }[];
    expect(results).toHaveLength(2);
    expect(results[0]?.id).toBe('d4'); // the only document with "motor"
    expect(results[0]!.score).toBeGreaterThanOrEqual(results[1]!.score);
  });

  test('the tag filter applies before maxResults', async () => {
    // "motor" ranks the English d4 first; with lang=de the single result is still a German document.
    const ids = await searchIds(
      setup(),
      { maxResults: 1, tagFilter: { include: { lang: ['de'] } } },
      'widget motor',
    );
    expect(ids).toHaveLength(1);
    expect(['d3', 'd5']).toContain(ids[0]);
  });

  test('maxResults 50 is accepted, 51 and 0 are BadRequestError', async () => {
    const s = setup();
    await expect(
      s.client.sessions.create({ customizations: { extensions: { rag: { maxResults: 50 } } } }),
    ).resolves.toHaveProperty('sessionId');
    for (const maxResults of [51, 0]) {
      const error = await s.client.sessions
        .create({ customizations: { extensions: { rag: { maxResults } } } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).status).toBe(400);
    }
  });

  test('an unknown index is a BadRequestError with code unknown_index', async () => {
    const s = setup();
    const error = await s.client.sessions
      .create({ customizations: { extensions: { rag: { indexes: ['kb', 'wiki'] } } } })
      .catch((e: unknown) => e);
    expect(error instanceof BadRequestError).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'unknown_index' });
  });
});

describe('prefetch, through the SDK', () => {
  test('prefetch stores a system message right before the first user message, with the retrieved documents', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({
      customizations: {
        extensions: {
          rag: {
            indexes: ['kb'],
            prefetchEnabled: true,
            maxResults: 2,
            tagFilter: { include: { lang: ['en'] } },
          },
        },
      },
    });
    const first = await s.client.messages.send(sessionId, { content: 'Does the widget motor get faster?' });
    expect(shape(first.messages)).toEqual([
      ['system:0', 'text', 'text'],
      ['user:1', 'text'],
      ['assistant:2', 'text'],
    ]);
    const [listing, data] = first.messages[0]!.content.map((b) => (b.type === 'text' ? b.text : ''));
    expect(listing).toContain('kb/d4');
    const retrieved = JSON.parse(data ?? '')[PREFETCH_JSON_KEY];
    expect(retrieved.query).toBe('Does the widget motor get faster?');
    expect(retrieved.documents).toHaveLength(2);
    expect(retrieved.documents[0]).toMatchObject({
      id: 'd4',
      index: 'kb',
      score: expect.any(Number),
      tags: { lang: ['en'], team: ['sales', 'eng'] },
    });
    // The session's tag filter applies to the prefetch too.
    for (const doc of retrieved.documents) expect(doc.tags.lang).toEqual(['en']);
    expect(messageText(first.messages[1])).toBe('Does the widget motor get faster?');
  });

  test('prefetch happens once per session', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({
      customizations: { extensions: { rag: { indexes: ['kb'], prefetchEnabled: true } } },
    });
    await s.client.messages.send(sessionId, { content: 'widget pricing' });
    const second = await s.client.messages.send(sessionId, { content: 'widget repair' });
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const exported = await s.client.messages.export(sessionId);
    expect(exported.map((m) => `${m.role}:${m.index}`)).toEqual([
      'system:0',
      'user:1',
      'assistant:2',
      'user:3',
      'assistant:4',
    ]);
  });

  test('without prefetchEnabled, or when nothing matches, no system message is added', async () => {
    const s = setup();
    const off = await s.client.sessions.create({
      customizations: { extensions: { rag: { indexes: ['kb'] } } },
    });
    const plain = await s.client.messages.send(off.sessionId, { content: 'widget pricing' });
    expect(plain.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const on = await s.client.sessions.create({
      customizations: { extensions: { rag: { indexes: ['kb'], prefetchEnabled: true } } },
    });
    const nothing = await s.client.messages.send(on.sessionId, { content: 'zebra xylophone' });
    expect(nothing.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

const ASK = '/search widget motor\n/then The next widget has a faster motor.';
const ONE_REPLY_SHAPE = [
  ['user:0', 'text'],
  ['assistant:1', 'tool_use:search_documents'],
  ['user:2', 'tool_result'],
  ['assistant:3', 'text'],
];

/** Checks a reply holding a retrieval call, its result and the answer; returns the result JSON. */
function expectRetrievalReply(reply: Pick<MessageReply, 'messages' | 'stopReason' | 'pendingTools'>) {
  expect(reply.stopReason).toBe('end_turn');
  expect(reply.pendingTools).toEqual([]);
  expect(shape(reply.messages)).toEqual(ONE_REPLY_SHAPE);
  const [call] = toolUses(reply.messages[1]);
  expect(call).toMatchObject({ name: 'search_documents', input: { query: 'widget motor' } });
  const [result] = toolResults(reply.messages[2]);
  expect(result).toMatchObject({ tool_use_id: call?.id, is_error: false });
  const json = jsonOf(result);
  expect(json.results[0]).toMatchObject({
    id: 'd4',
    index: 'kb',
    title: 'Widget roadmap',
    score: expect.any(Number),
    tags: { lang: ['en'], team: ['sales', 'eng'] },
    text: 'The next widget ships with a faster motor.',
  });
  expect(messageText(reply.messages[3])).toBe('The next widget has a faster motor.');
  return json;
}

describe('a retrieval call inside one reply, through the SDK', () => {
  test('the call, its result and the answer are in one buffered reply', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({
      customizations: { extensions: { rag: { indexes: ['kb'], maxResults: 3 } } },
    });
    const reply = await s.client.messages.send(sessionId, { content: ASK });
    const json = expectRetrievalReply(reply);
    expect(json.results).toHaveLength(3);
    // One POST, no resume: the server ran the tool inside the reply.
    expect(s.requests.filter((r) => r.startsWith('POST /v1/messages'))).toHaveLength(1);
    // A server tool call is not a tool call of the tool endpoints.
    const error = await s.client.tools
      .get(sessionId, toolUses(reply.messages[1])[0]!.id)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: 'tool_call_not_found' });
  });

  test('the call, its result and the answer are in one stream, whose replyStop equals the buffered reply', async () => {
    const s = setup();
    const create = () =>
      s.client.sessions.create({
        customizations: { extensions: { rag: { indexes: ['kb'], maxResults: 3 } } },
      });
    const buffered = await s.client.messages.send((await create()).sessionId, { content: ASK });

    const { sessionId } = await create();
    const stream = s.client.messages.stream(sessionId, { content: ASK });
    const events: StreamEventItem[] = [];
    for await (const event of stream) events.push(event);
    const reply = await stream.finalReply();

    expect(
      events
        .filter((e) => e.type === 'messageStart')
        .map((e) => e.type === 'messageStart' && [e.role, e.index]),
    ).toEqual([
      ['user', 0],
      ['assistant', 1],
      ['user', 2],
      ['assistant', 3],
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'contentBlockStart',
        start: { toolUse: { toolUseId: expect.any(String), name: 'search_documents' } },
      }),
    );
    const resultDelta = events.find((e) => e.type === 'contentBlockDelta' && 'toolResult' in e.delta) as
      | { delta: { toolResult: { json?: { results: { id: string }[] } }[] } }
      | undefined;
    expect(resultDelta?.delta.toolResult[0]?.json?.results[0]?.id).toBe('d4');
    expect(events.filter((e) => e.type === 'replyStop')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('replyStop');

    // The replyStop carries what the buffered reply carries (tool ids and timings aside).
    expectRetrievalReply(reply);
    expect(reply.sessionId).toBe(sessionId);
    const normalize = (r: MessageReply) => ({
      stopReason: r.stopReason,
      pendingTools: r.pendingTools,
      shape: shape(r.messages),
      result: jsonOf(toolResults(r.messages[2])[0]),
      answer: messageText(r.messages[3]),
    });
    expect(normalize(reply)).toEqual(normalize(buffered));
    // The messages rebuilt from the events match the final ones.
    expect(stream.messages.map((m) => ({ role: m.role, index: m.index, content: m.content }))).toEqual(
      (await stream.finalMessages()).map((m) => ({ role: m.role, index: m.index, content: m.content })),
    );
    // What the stream stored is what an export returns.
    const exported = await s.client.messages.export(sessionId);
    expect(exported.map((m) => m.content)).toEqual(reply.messages.map((m) => m.content));
  });

  test('the same one-stream reply over real HTTP', async () => {
    const running = await startServer({
      port: 0,
      clock: new ManualClock(0),
      extensions: { indexes: { kb: KB } },
    });
    try {
      const client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
      const { sessionId } = await client.sessions.create({
        customizations: { extensions: { rag: { indexes: ['kb'] } } },
      });
      const stream = client.messages.stream(sessionId, { content: ASK });
      const seen: string[] = [];
      stream.on('message', (m) => seen.push(`${m.role}:${m.index}`));
      expectRetrievalReply(await stream.finalReply());
      expect(seen).toEqual(['user:0', 'assistant:1', 'user:2', 'assistant:3']);
    } finally {
      await running.close();
    }
  });

  test('invalid retrieval input is an error result the model sees; the reply goes on', async () => {
    const s = setup();
    const { sessionId } = await s.client.sessions.create({
      customizations: { extensions: { rag: { indexes: ['kb'] } } },
    });
    const reply = await s.client.messages.send(sessionId, {
      content: '/tool search_documents {"query":"widget","extra":1}',
    });
    expect(reply.stopReason).toBe('end_turn');
    const [result] = toolResults(reply.messages[2]);
    expect(result?.is_error).toBe(true);
    expect(messageText(reply.messages[3])).toMatch(/^Tool search_documents failed: /);
  });
});
