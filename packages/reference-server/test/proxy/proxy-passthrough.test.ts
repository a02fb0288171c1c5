import { turn } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { answer, DEMO_TOKEN, send, startProxy, startScriptedUpstream, startUpstream } from './helpers.js';

const SCRIPT = [
  turn.text('Hello, I can check the weather.'),
  turn.toolUse('get_weather', { city: 'Paris' }, { text: 'Let me check.' }),
  turn.text('It is sunny in Paris, 18 degrees.'),
];

/** A conversation through the SDK: a buffered turn, a tool call, a streamed reply, an export. */
async function converse(baseUrl: string) {
  const client = new Parley({ baseUrl, token: DEMO_TOKEN, maxRetries: 0 });
  const { sessionId } = await client.sessions.create();
  const first = await client.messages.send(sessionId, { content: 'Hi' });
  const second = await client.messages.send(sessionId, { content: 'Weather in Paris?' });
  const pending = second.pendingTools[0];
  if (pending === undefined) throw new Error('no pending tool');
  await client.tools.respond(sessionId, pending.requestId, { temperatureC: 18 });
  const stream = client.messages.stream(sessionId, {});
  const deltas: string[] = [];
  stream.on('text', (delta) => deltas.push(delta));
  const finalText = await stream.finalText();
  const messages = await client.messages.export(sessionId);
  return {
    first: { stopReason: first.stopReason, content: first.messages.map((m) => m.content) },
    toolCall: {
      name: pending.name,
      input: pending.input,
      state: pending.state,
      stopReason: second.stopReason,
    },
    streamed: { finalText, deltas: deltas.join(''), stopReason: await stream.stopReason() },
    transcript: messages.map((m) => ({
      role: m.role,
      // Tool-use ids are fresh per run: compare them as placeholders.
      content: m.content.map((block) =>
        'id' in block
          ? { ...block, id: 'ID' }
          : 'tool_use_id' in block
            ? { ...block, tool_use_id: 'ID' }
            : block,
      ),
    })),
  };
}

describe('the checking proxy in front of a reference server over HTTP', () => {
  it('gives the SDK the same messages, tool calls, streamed reply and final text as the upstream directly', async () => {
    const upstream = await startUpstream();
    upstream.server.script(SCRIPT);
    const direct = await converse(upstream.url);

    upstream.server.reset();
    upstream.server.script(SCRIPT);
    const proxy = await startProxy(upstream.url);
    const proxied = await converse(proxy.url);

    expect(proxied).toEqual(direct);
    expect(proxied.toolCall).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    expect(proxied.streamed.finalText).toBe('It is sunny in Paris, 18 degrees.');
    // The upstream answered every request: sessions exist there, not in the proxy.
    expect(upstream.server.sessionCount).toBe(1);
    expect(proxy.running.server.sessionCount).toBe(0);
  });

  it('finds no violation in a conforming upstream and reports every request', async () => {
    const upstream = await startUpstream();
    upstream.server.script(SCRIPT);
    const proxy = await startProxy(upstream.url);
    await converse(proxy.url);

    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({
      upstream: upstream.url,
      requests: 6,
      violations: 0,
      requestsWithViolations: 0,
      unreachable: 0,
      timeouts: 0,
      rules: [],
    });
    expect(proxy.lines).toEqual([]);
  });

  it('tells its observers each exchange once its body ended: bodies, stream events in order, no authorization', async () => {
    const upstream = await startUpstream();
    upstream.server.script([turn.text('one two three')]);
    const proxy = await startProxy(upstream.url);
    const created = await (await send(`${proxy.url}/v1/sessions`, 'POST', {})).json();
    const streamed = await send(`${proxy.url}/v1/messages/${created.sessionId}/stream`, 'POST', {
      content: 'Hi',
    });
    await streamed.text();
    await proxy.running.close();

    const [create, stream] = proxy.exchanges;
    expect(create).toMatchObject({
      seq: 0,
      method: 'POST',
      path: '/v1/sessions',
      requestBody: {},
      status: 201,
      responseBody: { sessionId: created.sessionId },
    });
    expect(create?.requestHeaders.authorization).toBeUndefined();
    expect(stream).toMatchObject({
      seq: 1,
      path: `/v1/messages/${created.sessionId}/stream`,
      requestBody: { content: 'Hi' },
      status: 200,
      streamEnd: 'complete',
    });
    const kinds = stream?.events?.map(({ event }) => Object.keys(event)[0]);
    expect(kinds?.[0]).toBe('messageStart');
    expect(kinds?.at(-1)).toBe('replyStop');
    const times = stream?.events?.map(({ atMs }) => atMs) ?? [];
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(proxy.observerClosed()).toBe(true);
    // The stop prints the report's summary.
    expect(proxy.lines.at(-1)).toMatch(
      /^\[parley\] proxy report: 2 requests to http:\/\/127\.0\.0\.1:\d+, 0 protocol violations/,
    );
  });

  it('keeps /healthz and the control routes local and forwards only /v1', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream.url);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
    expect((await proxy.control('/_parley/journal')).status).toBe(200);
    expect(upstream.server.journal.entries()).toEqual([]);
    const missing = await send(`${proxy.url}/v1/nowhere`, 'GET');
    expect(missing.status).toBe(404);
    expect(upstream.server.journal.entries().map((e) => e.path)).toEqual(['/v1/nowhere']);
    // The upstream's request id comes back: the one to quote to the deployment's owners.
    expect(missing.headers.get('x-request-id')).toBe(upstream.server.journal.entries()[0]?.requestId);
  });

  it('keeps the path prefix of the upstream URL, and repeated response fields joined as fetch joins them', async () => {
    const upstream = await startScriptedUpstream((_, res) => {
      res.setHeader('x-trace', ['a', 'b']);
      answer(res, 201, '{"sessionId":"sess_1"}');
    });
    const proxy = await startProxy(`${upstream.url}/api/`);
    const response = await send(`${proxy.url}/v1/sessions?x=1`, 'POST', {});
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ sessionId: 'sess_1' });
    expect(response.headers.get('x-trace')).toBe('a, b');
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/v1/sessions?x=1']);
  });
});
