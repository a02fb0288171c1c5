import { createReferenceServer } from '@parley/reference-server';
import {
  APIUserAbortError,
  MessageStream,
  NotFoundError,
  Parley,
  RateLimitError,
  StreamError,
  type StreamEventItem,
} from '@parley/sdk';
import { partialInput } from '@parley/sdk/partial-input';
import { describe, expect, it } from 'vitest';

function setup() {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  return { server, client };
}

/**
 * Events as two replies to the same message can be compared: tool use ids numbered in order of
 * appearance, times zeroed, message indexes counted from the reply's first.
 */
function comparable(events: readonly StreamEventItem[]): unknown {
  const ids = new Map<string, string>();
  const first = events.find((e) => e.type === 'messageStart') as { index?: number } | undefined;
  const base = first?.index ?? 0;
  return JSON.parse(JSON.stringify(events), (key, value: unknown) => {
    if (typeof value === 'string' && value.startsWith('tooluse_')) {
      if (!ids.has(value)) ids.set(value, `tooluse_${ids.size}`);
      return ids.get(value);
    }
    if (key === 'createdAt' || key === 'deadlineAt' || key === 'latencyMs') return 0;
    if (key === 'index' && typeof value === 'number') return value - base;
    return value;
  });
}

async function collect(stream: MessageStream): Promise<StreamEventItem[]> {
  const events: StreamEventItem[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('MessageStream.toReadableStream / fromReadableStream', () => {
  it('hands on every event and the final reply; the body is the protocol document, one event per line', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const content = '/say Hello over the relay.\n/tool get_weather {"city":"Paris"}';
    const direct = await collect(client.messages.stream(sessionId, { content }));
    await client.messages.rewind(sessionId, 0);

    const body = client.messages.stream(sessionId, { content }).toReadableStream();
    const [forText, forStream] = body.tee();
    const relayed = MessageStream.fromReadableStream(forStream);
    const events = await collect(relayed);
    const text = await new Response(forText).text();

    // Same kinds and payloads as a direct read; the two replies differ only in tool use ids, times
    // and message indexes (the relayed one came after a rewind).
    expect(events.map((e) => e.type)).toEqual(direct.map((e) => e.type));
    expect(comparable(events)).toEqual(comparable(direct));
    expect(relayed.sessionId).toBe(sessionId);
    expect(await relayed.finalText()).toBe('Hello over the relay.');
    expect((await relayed.pendingTools()).map((p) => p.input)).toEqual([{ city: 'Paris' }]);
    const parsed = JSON.parse(text) as { sessionId: string; events: Array<Record<string, object>> };
    expect(parsed.sessionId).toBe(sessionId);
    // The other side gets each event of the body as it was written, payload and all.
    expect(events).toEqual(
      parsed.events.map((event) => {
        const [type, payload] = Object.entries(event)[0] as [string, object];
        return { ...payload, type };
      }),
    );
    expect(text.trimEnd().split('\n')).toHaveLength(events.length + 2);
  });

  it('a mid-stream exception on the server side is the same StreamError on the other side', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const source = client.messages.stream(sessionId, { content: '/say Partial answer\n/fail boom' });
    const sourceError = await (async () => {
      const relayed = MessageStream.fromReadableStream(source.toReadableStream());
      const deltas: string[] = [];
      relayed.on('text', (d) => deltas.push(d));
      const error = await relayed.finalReply().catch((e: unknown) => e);
      expect(deltas.join('')).toBe('Partial answer');
      return error;
    })();
    const original = await source.finalReply().catch((e: unknown) => e);
    expect(sourceError instanceof StreamError).toBe(true);
    expect(sourceError).toMatchObject({
      name: 'StreamError',
      code: 'model_error',
      exceptionKind: 'modelStreamErrorException',
      eventCount: (original as { eventCount: number }).eventCount,
    });
  });

  it('a body cut by an injected fault reaches the other side as the StreamError the server side got', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const source = client.messages.stream(
      sessionId,
      { content: '/say one two three four five' },
      { headers: { 'x-parley-fault': 'cut-after=6' } },
    );
    const relayed = MessageStream.fromReadableStream(source.toReadableStream());
    const error = await relayed.finalReply().catch((e: unknown) => e);
    const original = await source.finalReply().catch((e: unknown) => e);
    expect(error instanceof StreamError).toBe(true);
    expect((error as Error).message).toBe((original as Error).message);
    expect(error).toMatchObject({ eventCount: 6, lastEventKind: 'contentBlockDelta' });
  });

  it('an HTTP error before the stream began is the same APIError subclass, with status, code and request id', async () => {
    const { client } = setup();
    const source = client.messages.stream('sess_missing', { content: 'Hi' });
    const error = await MessageStream.fromReadableStream(source.toReadableStream())
      .finalReply()
      .catch((e: unknown) => e);
    const original = await source.finalReply().catch((e: unknown) => e);
    expect(error instanceof NotFoundError).toBe(true);
    expect(error).toMatchObject({
      status: 404,
      code: 'session_not_found',
      requestId: (original as { requestId: string }).requestId,
      message: (original as Error).message,
    });

    const limited = client.messages.stream(
      'sess_x',
      { content: 'Hi' },
      {
        headers: { 'x-parley-fault': 'status=429, retry-after=2' },
        maxRetries: 0,
      },
    );
    const rateLimited = await MessageStream.fromReadableStream(limited.toReadableStream())
      .finalReply()
      .catch((e: unknown) => e);
    expect(rateLimited instanceof RateLimitError).toBe(true);
    expect(rateLimited).toMatchObject({ status: 429, retryAfterMs: 2000 });
  });

  it('cancelling the relayed body aborts the source stream and the server reply', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const source = client.messages.stream(sessionId, { content: '/delay 1000\n/say one two three' });
    const relayed = MessageStream.fromReadableStream(source.toReadableStream());
    const first = await relayed[Symbol.asyncIterator]().next();
    expect(first.value?.type).toBe('messageStart');
    relayed.abort();
    expect((await relayed.finalReply().catch((e: unknown) => e)) instanceof APIUserAbortError).toBe(true);
    expect((await source.finalReply().catch((e: unknown) => e)) instanceof APIUserAbortError).toBe(true);
    expect(source.aborted).toBe(true);
    // The server saw the client leave: the reply is no longer running, a new message is accepted.
    await expect(client.messages.send(sessionId, { content: 'Again' })).resolves.toMatchObject({ sessionId });
  });

  it('partial tool input works on the relayed side', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const source = client.messages.stream(sessionId, { content: '/tool search {"query":"relay"}' });
    const relayed = MessageStream.fromReadableStream(source.toReadableStream(), {
      partialInput: partialInput(),
    });
    const partials: unknown[] = [];
    relayed.on('toolInputDelta', ({ partial }) => partials.push(partial));
    await relayed.done();
    expect(partials.at(-1)).toEqual({ query: 'relay' });
    expect(partials.length).toBeGreaterThan(2);
  });
});
