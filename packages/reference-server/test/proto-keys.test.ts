import { type Model, scriptedModel, startServer } from '@parley/reference-server';
import { afterEach, describe, expect, it } from 'vitest';
import { caller, DEMO_TOKEN, expectError } from './helpers/api.js';

// Every request here goes over real HTTP, and every body is JSON text: a `__proto__` key can only be
// written in JSON (in an object literal it would set the prototype).
const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serve(options: { model?: Model } = {}) {
  const server = await startServer({ port: 0, control: true, ...options });
  running.push(server);
  // The control routes need the server's control token; the protocol routes the demo user's.
  const token = server.server.controlToken ?? '';
  const call = caller(
    (request) => {
      if (new URL(request.url).pathname.startsWith('/_parley/')) {
        request.headers.set('x-parley-control-token', token);
      }
      return fetch(request);
    },
    server.url,
    DEMO_TOKEN,
  );
  const send = (method: string, path: string, json: string) =>
    call(method, path, undefined, { rawBody: json, headers: { 'content-type': 'application/json' } });
  return { server, call, send };
}

/** Parses response text the way every JSON client does (own `__proto__` keys kept). */
const own = (value: unknown, key = '__proto__') =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;

const weatherTool = (extra = '') =>
  `{"name":"get_weather","description":"Weather","requestArgs":{"type":"object"${extra}}}`;

describe('keys named __proto__ are kept or refused, never dropped', () => {
  it('a tool keyed __proto__ in extensions.tools is refused with a 400 naming it; no session is created', async () => {
    const { call, send } = await serve();
    const res = await send(
      'POST',
      '/v1/sessions',
      `{"customizations":{"extensions":{"tools":{"__proto__":{"name":"__proto__","description":"x","requestArgs":{"type":"object"}}}}}}`,
    );
    const error = expectError(res, 400, 'invalid_request');
    expect(error.message).toMatch(/^customizations\.extensions\.tools\.__proto__: a key named "__proto__"/);
    expect(error.details?.issues).toEqual([
      { path: 'customizations.extensions.tools.__proto__', message: expect.stringContaining('rename it') },
    ]);
    expect((await call('GET', '/v1/sessions')).body.sessions).toEqual([]);
  });

  it('a __proto__ key at the top of a tool definition or in a tag filter is refused; inside a JSON Schema it is kept', async () => {
    const { call, send } = await serve();
    const topLevel = await send(
      'POST',
      '/v1/sessions',
      `{"customizations":{"extensions":{"tools":{"get_weather":${weatherTool(',"__proto__":{"x":1}')}}}}}`,
    );
    expect(expectError(topLevel, 400, 'invalid_request').message).toMatch(
      /^customizations\.extensions\.tools\.get_weather\.requestArgs\.__proto__: /,
    );
    const tagFilter = await send(
      'POST',
      '/v1/sessions',
      `{"customizations":{"agentId":"support","extensions":{"rag":{"tagFilter":{"include":{"__proto__":["en"]}}}}}}`,
    );
    expect(expectError(tagFilter, 400, 'invalid_request').message).toMatch(
      /^customizations\.extensions\.rag\.tagFilter\.include\.__proto__: /,
    );

    const nested = await send(
      'POST',
      '/v1/sessions',
      `{"customizations":{"extensions":{"tools":{"get_weather":${weatherTool(',"properties":{"__proto__":{"type":"string"}}')}}}}}`,
    );
    expect(nested.status, nested.text).toBe(201);
    const [snapshot] = (await call('GET', '/_parley/sessions')).body.sessions;
    const properties = snapshot.customizations.extensions.tools.get_weather.requestArgs.properties;
    expect(own(properties)).toEqual({ type: 'string' });
  });

  it('a __proto__ field in a tool response reaches the tool result, and a repeat compares it', async () => {
    const { call, send } = await serve();
    const { sessionId } = (await call('POST', '/v1/sessions')).body;
    const reply = (
      await call('POST', `/v1/messages/${sessionId}`, { content: '/tool get_weather {"city":"Paris"}' })
    ).body;
    const requestId = reply.pendingTools[0].requestId;
    const path = `/v1/tools/response/${sessionId}/${requestId}`;
    const response = '{"response":{"state":"COMPLETE","__proto__":{"polluted":true},"tempC":21}}';
    expect((await send('POST', path, response)).status).toBe(200);
    // An identical repeat is harmless; a different __proto__ value is a different response.
    expect((await send('POST', path, response)).status).toBe(200);
    const other = '{"response":{"state":"COMPLETE","__proto__":{"polluted":false},"tempC":21}}';
    expectError(await send('POST', path, other), 409, 'tool_call_terminal');

    const resumed = (await call('POST', `/v1/messages/${sessionId}`, {})).body;
    const toolResult = resumed.messages[0].content[0];
    expect(toolResult.type).toBe('tool_result');
    const json = toolResult.content[0].json;
    expect(Object.keys(json)).toEqual(['__proto__', 'tempC']);
    expect(own(json)).toEqual({ polluted: true });
    expect(resumed.messages[1].content[0].text).toBe(
      'Tool get_weather returned {"__proto__":{"polluted":true},"tempC":21}.',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a __proto__ key in sessionData is kept: the model and the session snapshot see it', async () => {
    const model = scriptedModel((request) => ({ text: JSON.stringify(request.customizations.sessionData) }));
    const { call, send } = await serve({ model });
    const created = await send(
      'POST',
      '/v1/sessions',
      '{"customizations":{"sessionData":{"__proto__":{"a":1},"b":[{"__proto__":2}]}}}',
    );
    expect(created.status, created.text).toBe(201);
    const { sessionId } = created.body;
    const reply = (await call('POST', `/v1/messages/${sessionId}`, { content: 'what do you know?' })).body;
    expect(reply.messages.at(-1).content[0].text).toBe('{"__proto__":{"a":1},"b":[{"__proto__":2}]}');
    const [snapshot] = (await call('GET', '/_parley/sessions')).body.sessions;
    expect(own(snapshot.customizations.sessionData)).toEqual({ a: 1 });
    expect(own(snapshot.customizations.sessionData.b[0])).toBe(2);
  });

  it('a __proto__ key in a tool input is kept in the reply, the tool call and the conversation', async () => {
    const { call } = await serve();
    const { sessionId } = (await call('POST', '/v1/sessions')).body;
    const reply = (
      await call('POST', `/v1/messages/${sessionId}`, {
        content: '/tool get_weather {"__proto__":{"units":"metric"},"city":"Paris"}',
      })
    ).body;
    const pending = reply.pendingTools[0];
    expect(Object.keys(pending.input)).toEqual(['__proto__', 'city']);
    expect(own(pending.input)).toEqual({ units: 'metric' });
    const view = (await call('GET', `/v1/tools/request/${sessionId}/${pending.requestId}`)).body;
    expect(own(view.input)).toEqual({ units: 'metric' });
    const toolUse = reply.messages
      .at(-1)
      .content.find((block: { type: string }) => block.type === 'tool_use');
    expect(own(toolUse.input)).toEqual({ units: 'metric' });
  });

  it('a __proto__ key at the top of a strict body (send, heartbeat) is refused as an unknown field', async () => {
    const { call, send } = await serve();
    const { sessionId } = (await call('POST', '/v1/sessions')).body;
    const res = await send('POST', `/v1/messages/${sessionId}`, '{"__proto__":{},"content":"hi"}');
    expect(expectError(res, 400, 'invalid_request').message).toContain('__proto__');
  });

  it('a __proto__ key in a script (PUT /_parley/script, --script) is refused naming it', async () => {
    const { send } = await serve();
    const res = await send(
      'PUT',
      '/_parley/script',
      '{"turns":[{"toolUses":[{"name":"get_weather","input":{"__proto__":{"city":"Paris"}}}]}]}',
    );
    expect(expectError(res, 400, 'invalid_request').message).toContain(
      'turns[0].toolUses[0].input.__proto__',
    );
  });
});
