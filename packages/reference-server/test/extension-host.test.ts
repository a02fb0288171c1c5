import {
  type ExtensionHost,
  HttpError,
  MAX_MODEL_CALLS_PER_REPLY,
  type ServerTool,
  scriptedModel,
  turn,
} from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';
import { eventsModel, textEvents, toolEvents } from './helpers/models.js';

function lookupTool(calls: unknown[] = []): ServerTool {
  return {
    name: 'lookup',
    description: 'Looks things up on the server.',
    inputSchema: { type: 'object' },
    async call(input) {
      calls.push(input);
      return { content: [{ type: 'json', json: { found: input } }], isError: false };
    },
  };
}

describe('extension host wiring', () => {
  it('validateSession can refuse a session with a protocol error', async () => {
    const host: ExtensionHost = {
      validateSession: (c) => {
        if (c.extensions?.rag?.indexes?.includes('missing'))
          throw new HttpError('unknown_index', 'Unknown index "missing"');
      },
    };
    const h = harness({ extensionHost: host });
    expectError(
      await h.call('POST', '/v1/sessions', {
        customizations: { extensions: { rag: { indexes: ['missing'] } } },
      }),
      400,
      'unknown_index',
    );
    expect(
      (
        await h.call('POST', '/v1/sessions', {
          customizations: { extensions: { rag: { indexes: ['docs'] } } },
        })
      ).status,
    ).toBe(201);
  });

  it('a server tool runs inside the reply: tool_use, tool_result and the answer land in one reply', async () => {
    const calls: unknown[] = [];
    const model = eventsModel(
      toolEvents({ id: 'tooluse_s1', name: 'lookup', input: { q: 'x' } }),
      textEvents('Found it.'),
    );
    const h = harness({ model, extensionHost: { serverTools: () => [lookupTool(calls)] } });
    const reply = await h.send(await h.createSession(), 'find x');
    expect(calls).toEqual([{ q: 'x' }]);
    expect(reply.stopReason).toBe('end_turn');
    expect(reply.pendingTools).toEqual([]);
    expect(reply.messages.map((m) => [m.role, m.index, m.content[0]?.type])).toEqual([
      ['user', 0, 'text'],
      ['assistant', 1, 'tool_use'],
      ['user', 2, 'tool_result'],
      ['assistant', 3, 'text'],
    ]);
    expect(reply.messages[2]?.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'tooluse_s1',
      content: [{ type: 'json', json: { found: { q: 'x' } } }],
      is_error: false,
    });
    expect(model.requests[0]?.tools).toContainEqual({
      name: 'lookup',
      description: 'Looks things up on the server.',
      inputSchema: { type: 'object' },
      kind: 'server',
    });
  });

  it('a server tool that throws gives the model an error tool_result', async () => {
    const failing: ServerTool = {
      ...lookupTool(),
      call: async () => Promise.reject(new Error('index offline')),
    };
    const model = eventsModel(toolEvents({ id: 'tooluse_s1', name: 'lookup' }), textEvents('Sorry.'));
    const h = harness({ model, extensionHost: { serverTools: () => [failing] } });
    const reply = await h.send(await h.createSession(), 'x');
    expect(reply.messages[2]?.content[0]).toMatchObject({
      is_error: true,
      content: [{ type: 'text', text: 'Tool lookup failed: index offline' }],
    });
  });

  it('server and client tools in one message: server tools run first, the reply stops for the client ones, and the resume answers all in order', async () => {
    const model = eventsModel(
      toolEvents(
        { id: 'tooluse_c', name: 'client_tool', input: { a: 1 } },
        { id: 'tooluse_s', name: 'lookup', input: { q: 1 } },
      ),
      textEvents('done'),
    );
    const h = harness({ model, extensionHost: { serverTools: () => [lookupTool()] } });
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, 'x');
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.pendingTools.map((t) => t.requestId)).toEqual(['tooluse_c']);
    expect(reply.messages).toHaveLength(2);
    expectError(await h.call('GET', `/v1/tools/request/${sessionId}/tooluse_s`), 404, 'tool_call_not_found');
    await h.call('POST', `/v1/tools/response/${sessionId}/tooluse_c`, {
      response: { state: 'COMPLETE', r: 2 },
    });
    const resumed = await h.send(sessionId);
    expect(resumed.messages[0]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'tooluse_c',
        content: [{ type: 'json', json: { r: 2 } }],
        is_error: false,
      },
      {
        type: 'tool_result',
        tool_use_id: 'tooluse_s',
        content: [{ type: 'json', json: { found: { q: 1 } } }],
        is_error: false,
      },
    ]);
  });

  it('a client tool of the session wins over a server tool of the same name', async () => {
    const model = eventsModel(toolEvents({ id: 'tooluse_1', name: 'lookup' }));
    const h = harness({ model, extensionHost: { serverTools: () => [lookupTool()] } });
    const sessionId = await h.createSession({
      extensions: {
        tools: { lookup: { name: 'lookup', description: 'client', requestArgs: { type: 'object' } } },
      },
    });
    const reply = await h.send(sessionId, 'x');
    expect(reply.pendingTools.map((t) => t.name)).toEqual(['lookup']);
    expect(model.requests[0]?.tools.map((t) => [t.name, t.kind])).toEqual([['lookup', 'client']]);
  });

  it(`a model that keeps calling server tools is stopped after ${MAX_MODEL_CALLS_PER_REPLY} model calls`, async () => {
    let n = 0;
    const model = scriptedModel(() => turn.toolUses([{ name: 'lookup', input: {}, id: `tooluse_${n++}` }]));
    const h = harness({ model, extensionHost: { serverTools: () => [lookupTool()] } });
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, 'loop');
    expect(reply.stopReason).toBe('server_tool_limit');
    expect(reply.messages.filter((m) => m.role === 'assistant')).toHaveLength(MAX_MODEL_CALLS_PER_REPLY);
    expect(reply.messages.at(-1)?.content[0]?.type).toBe('tool_result');
  });

  it('prefetch injects a system message just before the first user message of the session, only once', async () => {
    const seen: string[] = [];
    const model = eventsModel(textEvents('ok'));
    const h = harness({
      model,
      extensionHost: {
        prefetch: async (_session, text) => {
          seen.push(text);
          return [{ type: 'text', text: `Context for: ${text}` }];
        },
      },
    });
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, 'first question');
    expect(reply.messages.map((m) => [m.role, m.index])).toEqual([
      ['system', 0],
      ['user', 1],
      ['assistant', 2],
    ]);
    expect(reply.messages[0]?.content).toEqual([{ type: 'text', text: 'Context for: first question' }]);
    expect(model.requests[0]?.messages.map((m) => m.role)).toEqual(['system', 'user']);
    await h.send(sessionId, 'second');
    expect(seen).toEqual(['first question']);
  });

  it('prefetches() false skips prefetch for that session; the model still gets the user message', async () => {
    const called: string[] = [];
    const model = eventsModel(textEvents('ok'));
    const h = harness({
      model,
      extensionHost: {
        prefetches: (session) =>
          (session.customizations.sessionData as { retrieval?: boolean } | undefined)?.retrieval === true,
        prefetch: async (_session, text) => {
          called.push(text);
          return [{ type: 'text', text: `Context for: ${text}` }];
        },
      },
    });
    const plain = await h.createSession();
    expect((await h.send(plain, 'no retrieval')).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const withRetrieval = await h.createSession({ sessionData: { retrieval: true } });
    expect((await h.send(withRetrieval, 'with retrieval')).messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
    ]);
    expect(called).toEqual(['with retrieval']);
  });

  it('a prefetch that fails is a model_error; the user message stays', async () => {
    const h = harness({ extensionHost: { prefetch: async () => Promise.reject(new Error('search down')) } });
    const sessionId = await h.createSession();
    const error = expectError(
      await h.call('POST', `/v1/messages/${sessionId}`, { content: 'q' }),
      502,
      'model_error',
    );
    expect(error.message).toContain('search down');
    expect(
      (await h.call('GET', `/v1/messages/${sessionId}`)).body.messages.map((m: { role: string }) => m.role),
    ).toEqual(['user']);
  });

  it('checkQuota can refuse a send with 429 quota_exceeded and Retry-After, before anything is stored', async () => {
    let allow = false;
    const h = harness({
      extensionHost: {
        checkQuota: (session) => {
          if (!allow) {
            throw new HttpError('quota_exceeded', `Quota of ${session.customizations.product} used up`, {
              details: { retryAfterSeconds: 30 },
            });
          }
        },
      },
    });
    const sessionId = await h.createSession({ product: 'demo' });
    const res = await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x' });
    expectError(res, 429, 'quota_exceeded');
    expect(res.headers.get('retry-after')).toBe('30');
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).body.messages).toEqual([]);
    allow = true;
    expect((await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x' })).status).toBe(200);
  });

  it('sessionDeleted is told about deleted sessions', async () => {
    const deleted: string[] = [];
    const h = harness({ extensionHost: { sessionDeleted: (id) => deleted.push(id) } });
    const sessionId = await h.createSession();
    await h.call('DELETE', `/v1/sessions/${sessionId}`);
    expect(deleted).toEqual([sessionId]);
  });
});
