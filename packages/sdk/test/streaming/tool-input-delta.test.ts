import { createReferenceServer, createStandInModel } from '@parley/reference-server';
import { defineTool, Parley, ParleyError, StreamError } from '@parley/sdk';
import { partialInput, type ToolInputDelta, toolInputDeltas } from '@parley/sdk/partial-input';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

function setup(toolInputFragmentLength?: number) {
  const server = createReferenceServer(
    toolInputFragmentLength === undefined ? {} : { model: createStandInModel({ toolInputFragmentLength }) },
  );
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  return { server, client };
}

const searchDocs = defineTool({
  name: 'search_docs',
  description: 'Search the docs',
  input: z.object({ query: z.string(), limit: z.number() }),
  run: async () => ({ hits: 0 }),
});

describe('toolInputDelta: tool input parsed as it streams', () => {
  it('delivers every fragment with the input so far; the last partial equals the parsed input', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const input = { query: 'streaming JSON parsers', limit: 5, filters: { lang: ['en', 'fr'] } };
    const stream = client.messages.stream(
      sessionId,
      { content: `/tool search_docs ${JSON.stringify(input)}` },
      { partialInput: partialInput() },
    );
    const deltas: ToolInputDelta[] = [];
    // Read in the listener, `partial` is the input as of this delta.
    const queriesAsTheyCame: unknown[] = [];
    stream.on('toolInputDelta', (delta) => {
      deltas.push(delta);
      queriesAsTheyCame.push(delta.partial.query);
    });
    const [pending] = await stream.pendingTools();

    // The stand-in model sends 4-character fragments by default.
    expect(deltas.length).toBe(Math.ceil(JSON.stringify(input).length / 4));
    expect(deltas.map((d) => d.fragment).join('')).toBe(JSON.stringify(input));
    expect(deltas.every((d) => d.toolUseId === pending?.requestId && d.name === 'search_docs')).toBe(true);
    expect(deltas.at(-1)?.partial).toEqual(input);
    // `partial` is live: one object for the call, the whole input once it has arrived.
    expect(deltas.every((d) => d.partial === deltas[0]?.partial)).toBe(true);
    // The query shows up while it is still being written.
    const queries = queriesAsTheyCame.filter((q) => typeof q === 'string');
    expect(new Set(queries).size).toBeGreaterThan(3);
    expect(queries.every((q) => input.query.startsWith(q as string))).toBe(true);
    // `snapshot()`, called here after the stream ended, is the input as it stood at its own delta;
    // JSON.stringify (a relay to a page) writes that too.
    expect(deltas.map((d) => d.snapshot().query)).toEqual(queriesAsTheyCame);
    const second = deltas[1];
    expect(JSON.parse(JSON.stringify(second))).toEqual({
      toolUseId: second?.toolUseId,
      name: 'search_docs',
      fragment: second?.fragment,
      partial: second?.snapshot(),
    });
    expect(second?.snapshot()).not.toEqual(input);
  });

  it('toolInputDeltas(stream) yields the same items in a for await loop, beside the events', async () => {
    const { client } = setup(1);
    const { sessionId } = await client.sessions.create();
    const stream = client.messages.stream(
      sessionId,
      { content: '/tool search_docs {"query":"abc","limit":2}' },
      { partialInput: partialInput({ search_docs: searchDocs }) },
    );
    // The listener reads `partial` as each delta comes; the loop may run behind the parser, so it
    // takes each delta's snapshot, which is the input as of that delta whenever it is called.
    const listened: string[] = [];
    stream.on('toolInputDelta', ({ partial }) => listened.push(JSON.stringify(partial)));
    const iterated: string[] = [];
    for await (const delta of toolInputDeltas(stream)) {
      // Narrowed on the tool's name, `snapshot()` is typed from its input schema.
      if (delta.name === 'search_docs') iterated.push(JSON.stringify(delta.snapshot()));
    }
    expect(iterated).toEqual(listened);
    expect(new Set(iterated).size).toBeGreaterThan(5);
    expect(iterated).toHaveLength('{"query":"abc","limit":2}'.length);
    expect(iterated.at(-1)).toBe('{"query":"abc","limit":2}');
    expect(await stream.stopReason()).toBe('tool_use');
  });

  it('with a list of tools, the tools not in it have no deltas', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const stream = client.messages.stream(
      sessionId,
      { content: '/tool other_tool {"x":"a long enough value"}\n/tool search_docs {"query":"q","limit":1}' },
      { partialInput: partialInput({ search_docs: searchDocs }) },
    );
    const names = new Set<string>();
    stream.on('toolInputDelta', ({ name }) => names.add(name));
    expect((await stream.pendingTools()).map((p) => p.name)).toEqual(['other_tool', 'search_docs']);
    expect([...names]).toEqual(['search_docs']);
  });

  it('listening without the partialInput option is a clear error, not a silent miss', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const stream = client.messages.stream(sessionId, { content: 'Hi' });
    let error: unknown;
    try {
      stream.on('toolInputDelta', () => {});
    } catch (e) {
      error = e;
    }
    expect(error instanceof ParleyError).toBe(true);
    expect(String(error)).toContain('@parley/sdk/partial-input');
    expect(() => toolInputDeltas(stream)[Symbol.asyncIterator]()).toThrow(/partialInput option/);
    await stream.done();
  });

  it('partialInput refuses a tool keyed by another name than its own', () => {
    expect(() => partialInput({ search: searchDocs })).toThrow(/named "search_docs"/);
  });

  it('a loop over toolInputDeltas throws the stream error', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const stream = client.messages.stream(
      sessionId,
      { content: '/tool search_docs {"query":"abc"}' },
      { partialInput: partialInput(), headers: { 'x-parley-fault': 'cut-after=8' } },
    );
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const delta of toolInputDeltas(stream)) seen.push(delta.partial);
    })().catch((e: unknown) => e);
    expect(error instanceof StreamError).toBe(true);
    // 4 events of the user message, messageStart, contentBlockStart, then `{"qu` and `ery"`.
    expect(seen).toEqual([{}, {}]);
  });
});
