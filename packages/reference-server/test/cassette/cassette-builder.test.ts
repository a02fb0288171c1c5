import { describe, expect, it } from 'vitest';
import { buildCassette } from '../../src/cassette/cassette-builder.js';
import type { ProxyExchange } from '../../src/proxy/proxy-exchange.js';

const base = { requestHeaders: {}, responseHeaders: {}, durationMs: 0 };

function create(seq: number, sessionId: string): ProxyExchange {
  return {
    ...base,
    seq,
    method: 'POST',
    path: '/v1/sessions',
    requestBody: undefined,
    status: 201,
    responseBody: { sessionId },
  };
}

function stream(
  seq: number,
  sessionId: string,
  events: Array<[number, Record<string, unknown>]>,
  end: NonNullable<ProxyExchange['streamEnd']>,
): ProxyExchange {
  return {
    ...base,
    seq,
    method: 'POST',
    path: `/v1/messages/${sessionId}/stream`,
    requestBody: { content: 'Find the order' },
    status: 200,
    responseBody: undefined,
    events: events.map(([atMs, event]) => ({ atMs, event })),
    streamEnd: end,
  };
}

const userMessage: Array<[number, Record<string, unknown>]> = [
  [1, { messageStart: { role: 'user', index: 0 } }],
  [1, { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Find the order' } } }],
  [1, { messageStop: {} }],
];

describe('building a cassette from proxy exchanges', () => {
  it('a reply with a server tool round gives one turn per model call, each timed from the previous call', () => {
    const cassette = buildCassette([
      create(0, 's1'),
      stream(
        1,
        's1',
        [
          ...userMessage,
          [100, { messageStart: { role: 'assistant', index: 1 } }],
          [
            100,
            {
              contentBlockStart: {
                contentBlockIndex: 0,
                start: { toolUse: { toolUseId: 't1', name: 'erp_find' } },
              },
            },
          ],
          [120, { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"id":' } } } }],
          [130, { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '7}' } } } }],
          [130, { contentBlockStop: { contentBlockIndex: 0 } }],
          [140, { messageStop: { stopReason: 'tool_use' } }],
          [150, { messageStart: { role: 'user', index: 2 } }],
          [
            150,
            {
              contentBlockStart: {
                contentBlockIndex: 0,
                start: { toolResult: { toolUseId: 't1', status: 'success' } },
              },
            },
          ],
          [
            150,
            {
              contentBlockDelta: {
                contentBlockIndex: 0,
                delta: { toolResult: [{ json: { status: 'shipped' } }] },
              },
            },
          ],
          [150, { contentBlockStop: { contentBlockIndex: 0 } }],
          [150, { messageStop: {} }],
          [300, { messageStart: { role: 'assistant', index: 3 } }],
          [310, { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'It shipped.' } } }],
          [320, { messageStop: { stopReason: 'end_turn' } }],
        ],
        'cut',
      ),
    ]);
    const turns = cassette.sessions[0]?.turns ?? [];
    expect(turns.map((t) => t.input)).toEqual([
      { user: [{ type: 'text', text: 'Find the order' }] },
      {
        toolResults: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [{ type: 'json', json: { status: 'shipped' } }],
            is_error: false,
          },
        ],
      },
    ]);
    expect(turns[0]?.content).toEqual([{ type: 'tool_use', id: 't1', name: 'erp_find', input: { id: 7 } }]);
    expect(turns[1]?.content).toEqual([{ type: 'text', text: 'It shipped.' }]);
    expect(turns[0]?.events?.map((e) => e.atMs)).toEqual([100, 100, 120, 130, 130, 140]);
    // The second call is timed from the first call's last event (140).
    expect(turns[1]?.events?.map((e) => e.atMs)).toEqual([160, 170, 180]);
  });

  it('a model call cut short (stream cut or left by the client) is not a turn; the calls before it are', () => {
    const cassette = buildCassette([
      create(0, 's1'),
      stream(
        1,
        's1',
        [
          ...userMessage,
          [100, { messageStart: { role: 'assistant', index: 1 } }],
          [110, { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Half an' } } }],
        ],
        'aborted',
      ),
    ]);
    expect(cassette.sessions[0]?.turns).toEqual([]);
  });

  it('exchanges are taken in order of arrival, and sessions in order of creation, whatever the order they ended in', () => {
    const send = (seq: number, sessionId: string, text: string): ProxyExchange => ({
      ...base,
      seq,
      method: 'POST',
      path: `/v1/messages/${sessionId}`,
      requestBody: { content: text },
      status: 200,
      responseBody: {
        sessionId,
        stopReason: 'end_turn',
        pendingTools: [],
        messages: [
          { role: 'user', index: 0, content: [{ type: 'text', text }] },
          { role: 'assistant', index: 1, content: [{ type: 'text', text: `re: ${text}` }] },
        ],
      },
    });
    const cassette = buildCassette([
      send(3, 'b', 'to b'),
      create(1, 'b'),
      send(2, 'a', 'to a'),
      create(0, 'a'),
    ]);
    expect(cassette.sessions.map((s) => s.turns.map((t) => t.content))).toEqual([
      [[{ type: 'text', text: 're: to a' }]],
      [[{ type: 'text', text: 're: to b' }]],
    ]);
  });

  it('a session id in the path is percent-decoded; a request to an unknown session is left out', () => {
    const cassette = buildCassette([
      create(0, 'sess 1'),
      {
        ...base,
        seq: 1,
        method: 'POST',
        path: '/v1/tools/response/sess%201/t1',
        requestBody: { response: { state: 'COMPLETE', ok: true } },
        status: 200,
        responseBody: undefined,
      },
      {
        ...base,
        seq: 2,
        method: 'POST',
        path: '/v1/tools/response/other/t2',
        requestBody: { response: { state: 'COMPLETE' } },
        status: 200,
        responseBody: undefined,
      },
      {
        ...base,
        seq: 3,
        method: 'POST',
        path: '/v1/messages/sess%201?x=1',
        requestBody: { content: 'go' },
        status: 502,
        responseBody: { error: { code: 'model_error', message: 'Overloaded' } },
      },
    ]);
    expect(cassette.sessions[0]?.turns).toEqual([
      {
        input: { user: [{ type: 'text', text: 'go' }] },
        toolResponses: [{ requestId: 't1', state: 'COMPLETE', response: { state: 'COMPLETE', ok: true } }],
        content: [],
        error: { code: 'model_error', message: 'Overloaded' },
      },
    ]);
  });
});
