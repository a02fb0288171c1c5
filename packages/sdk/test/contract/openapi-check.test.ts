import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { type FetchLike, Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { rejection } from './assertions.js';
import { OpenApiCheck } from './openapi-check.js';

const BASE_URL = 'http://parley.check.test';
const SESSION = '/v1/sessions';

/** A fetch that answers every request with this status and body. */
function answering(status: number, body: string): FetchLike {
  return async () =>
    new Response(status === 204 ? null : body, { status, headers: { 'content-type': 'application/json' } });
}

async function findings(fetch: FetchLike, request: Request): Promise<string[]> {
  const check = new OpenApiCheck(BASE_URL);
  await (await check.wrap(fetch)(request)).text();
  await check.settled();
  return check.take();
}

const get = (path: string) => new Request(`${BASE_URL}${path}`);
const post = (path: string, body: unknown) =>
  new Request(`${BASE_URL}${path}`, { method: 'POST', body: JSON.stringify(body) });
const stream = (events: unknown[]) => answering(200, JSON.stringify({ sessionId: 'sess_1', events }));
const MESSAGE_START = { messageStart: { role: 'user', index: 0 } };

describe('the contract suite’s OpenAPI check', () => {
  it('passes what the reference server answers, buffered and streamed, errors included', async () => {
    const server = createReferenceServer({ clock: new ManualClock(0) });
    const check = new OpenApiCheck(BASE_URL);
    const client = new Parley({
      baseUrl: BASE_URL,
      token: 'parley-demo-token',
      fetch: check.wrap(server.fetch),
    });
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: '/tool get_weather {"city":"Paris"}' });
    await client.tools.heartbeat(sessionId, reply.pendingTools[0]?.requestId ?? '');
    await client.tools.respond(sessionId, reply.pendingTools[0]?.requestId ?? '', { temp: 21 });
    await client.messages.stream(sessionId, {}).finalText();
    await rejection(client.messages.send(sessionId, {}));
    await client.sessions.delete(sessionId);
    await check.settled();
    expect(check.take()).toEqual([]);
    expect(check.checked).toBe(7);
  });

  it('reports a status the operation does not list', async () => {
    const [finding] = await findings(answering(418, '{}'), get(SESSION));
    expect(finding).toMatch(/GET \/v1\/sessions → 418: status not listed/);
  });

  it('reports a body that breaks the response schema', async () => {
    const found = await findings(answering(200, '{"sessions":[{"sessionId":1}]}'), get(SESSION));
    expect(found.join('\n')).toMatch(/\/sessions\/0\/sessionId must be string/);
  });

  it('reports an error code the document does not give that status for that operation', async () => {
    const body = { error: { code: 'reply_in_progress', message: 'x' } };
    const found = await findings(answering(404, JSON.stringify(body)), get(SESSION));
    expect(found.join('\n')).toMatch(/GET \/v1\/sessions → 404: status not listed/);
    const wrongCode = await findings(answering(409, JSON.stringify(body)), post(`${SESSION}`, {}));
    expect(wrongCode.join('\n')).toMatch(/status not listed/);
    const onDelete = { error: { code: 'tool_call_not_found', message: 'x' } };
    const deleteFound = await findings(
      answering(404, JSON.stringify(onDelete)),
      new Request(`${BASE_URL}${SESSION}/sess_1`, { method: 'DELETE' }),
    );
    expect(deleteFound.join('\n')).toMatch(/\/error\/code must be equal to one of the allowed values/);
  });

  it('reports a body on a response documented without one, and a route the document lacks', async () => {
    const heartbeat = post('/v1/tools/request/sess_1/tooluse_1/heartbeat', {
      state: 'PROCESSING',
      heartbeat: 1,
    });
    expect((await findings(answering(200, '{"ok":true}'), heartbeat)).join('\n')).toMatch(
      /documented without a body/,
    );
    expect((await findings(answering(200, '{}'), get('/v1/widgets'))).join('\n')).toMatch(
      /no operation in the OpenAPI document/,
    );
  });

  it('checks each stream event: a broken payload and an undocumented kind are findings', async () => {
    const path = '/v1/messages/sess_1/stream';
    const broken = await findings(
      stream([MESSAGE_START, { messageStart: { role: 'robot', index: 0 } }]),
      post(path, {}),
    );
    expect(broken.join('\n')).toMatch(/event 1: .*role/);
    const unknown = await findings(stream([MESSAGE_START, { laterEvent: {} }]), post(path, {}));
    expect(unknown.join('\n')).toMatch(/event 1: undocumented kind "laterEvent"/);
    expect(await findings(stream([MESSAGE_START]), post(path, {}))).toEqual([]);
  });

  it('checks the complete events of a stream the client aborted, and nothing more', async () => {
    const controller = new AbortController();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(
          encoder.encode('{"sessionId":"sess_1","events":[{"messageStart":{"role":"robot","index":0}},'),
        );
      },
    });
    const check = new OpenApiCheck(BASE_URL);
    const fetch = check.wrap(
      async () => new Response(body, { headers: { 'content-type': 'application/json' } }),
    );
    const request = new Request(`${BASE_URL}/v1/messages/sess_1/stream`, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    });
    const response = await fetch(request);
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await reader?.cancel();
    await check.settled();
    expect(check.take().join('\n')).toMatch(/event 0: .*role/);
    expect(check.checked).toBe(0);
  });
});
