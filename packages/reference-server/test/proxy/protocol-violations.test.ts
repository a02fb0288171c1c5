import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answer, type ReceivedRequest, send, startProxy, startScriptedUpstream } from './helpers.js';

/** Runs one request through a proxy in front of an upstream answering with `handle`; returns what came back. */
async function through(
  handle: (request: ReceivedRequest, response: ServerResponse) => void,
  method: string,
  path: string,
  body?: unknown,
) {
  const upstream = await startScriptedUpstream(handle);
  const proxy = await startProxy(upstream.url);
  const response = await send(proxy.url + path, method, body);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const journal = (await (await proxy.control('/_parley/journal')).json()).entries;
  const report = await (await proxy.control('/_parley/proxy/report')).json();
  return { response, bytes, text: new TextDecoder().decode(bytes), journal, report, proxy };
}

const STREAM_START = '{"sessionId":"sess_1","events":[\n';
const MESSAGE_START = '{"messageStart":{"role":"assistant","index":1}}';
const DELTA = '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"Hi"}}}';
const REPLY_STOP = JSON.stringify({
  replyStop: { messages: [], stopReason: 'end_turn', pendingTools: [], heartbeatTimeoutMs: 15000 },
});

describe('an upstream that breaks the protocol: reported with its path, passed on as it was sent', () => {
  it('a missing field: a created session without sessionId', async () => {
    const sent = '{"id":"sess_1"}';
    const r = await through((_, res) => answer(res, 201, sent), 'POST', '/v1/sessions', {});
    expect(r.response.status).toBe(201);
    expect(r.text).toBe(sent);
    const violation = { in: 'response', path: 'sessionId', expected: 'string', got: 'nothing' };
    expect(r.journal[0].violations).toEqual([violation]);
    expect(r.journal[0].violationCount).toBe(1);
    expect(r.report).toMatchObject({ requests: 1, violations: 1, requestsWithViolations: 1 });
    expect(r.report.rules).toEqual([
      {
        operation: 'POST /v1/sessions',
        in: 'response',
        path: 'sessionId',
        expected: 'string',
        count: 1,
        last: { path: 'sessionId', got: 'nothing', requestId: r.journal[0].requestId },
      },
    ]);
    expect(r.proxy.lines).toEqual([
      `[parley] proxy: protocol violation in the response of POST /v1/sessions [${r.journal[0].requestId}]: sessionId: expected string, got nothing`,
    ]);
  });

  it('a wrong type: a buffered reply whose usage counts are strings', async () => {
    const sent = JSON.stringify({
      sessionId: 'sess_1',
      messages: [],
      stopReason: 'end_turn',
      pendingTools: [],
      heartbeatTimeoutMs: 15000,
      usage: { inputTokens: '3', outputTokens: 2, totalTokens: 5 },
    });
    const r = await through((_, res) => answer(res, 200, sent), 'POST', '/v1/messages/sess_1', {
      content: 'Hi',
    });
    expect(r.text).toBe(sent);
    expect(r.journal[0].violations).toEqual([
      { in: 'response', path: 'usage.inputTokens', expected: 'number', got: 'string "3"' },
    ]);
    expect(r.proxy.lines).toHaveLength(1);
  });

  it('an unknown stream event kind, and an event whose payload has a wrong type', async () => {
    const sent =
      STREAM_START +
      [
        MESSAGE_START,
        '{"thinkingDelta":{"text":"hmm"}}',
        '{"contentBlockDelta":{"contentBlockIndex":"0","delta":{"text":"a"}}}',
        REPLY_STOP,
      ].join(',\n') +
      '\n]}\n';
    const r = await through(
      (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(sent);
      },
      'POST',
      '/v1/messages/sess_1/stream',
      { content: 'Hi' },
    );
    expect(r.response.status).toBe(200);
    expect(r.text).toBe(sent);
    // These two and no more: a false positive (a valid event flagged) would fail here.
    expect(r.journal[0].violations).toHaveLength(2);
    expect(r.journal[0].violationCount).toBe(2);
    expect(r.report).toMatchObject({ violations: 2, requestsWithViolations: 1 });
    const [unknown, wrongType] = r.journal[0].violations;
    expect(unknown).toMatchObject({
      in: 'response',
      path: 'events[1]',
      got: 'an event of kind "thinkingDelta"',
    });
    expect(unknown.expected).toMatch(/^one of the known event kinds \(messageStart, /);
    expect(wrongType).toEqual({
      in: 'response',
      path: 'events[2].contentBlockDelta.contentBlockIndex',
      expected: 'number',
      got: 'string "0"',
    });
    expect(r.journal[0].response).toMatchObject({ status: 200, events: 4, complete: true });
  });

  it('a 500 with a non-JSON body', async () => {
    const sent = '<html><body>Bad gateway of a load balancer</body></html>';
    const r = await through((_, res) => answer(res, 500, sent, 'text/html'), 'GET', '/v1/sessions');
    expect(r.response.status).toBe(500);
    expect(r.response.headers.get('content-type')).toBe('text/html');
    expect(r.text).toBe(sent);
    expect(r.journal[0].violations).toEqual([
      {
        in: 'response',
        path: '',
        expected: 'content-type application/json',
        got: 'content-type "text/html"',
      },
      {
        in: 'response',
        path: '',
        expected: 'a JSON error body {"error": {"code", "message"}}',
        got: `text ${JSON.stringify(sent)}`,
      },
    ]);
    expect(r.journal[0].response.body).toBe(sent);
  });

  it('a stream cut in the middle of an event', async () => {
    const sent = `${STREAM_START}${MESSAGE_START},\n${DELTA},\n{"contentBlockDelta":{"contentBlockIn`;
    const r = await through(
      (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(sent);
      },
      'POST',
      '/v1/messages/sess_1/stream',
      { content: 'Hi' },
    );
    expect(r.text).toBe(sent);
    expect(r.journal[0].violations).toEqual([
      { in: 'response', path: 'events[2]', expected: 'the whole event', got: 'the body ended inside it' },
    ]);
    expect(r.journal[0].response).toMatchObject({ events: 2, text: 'Hi', complete: false });
    await r.proxy.running.close();
    expect(r.proxy.exchanges[0]).toMatchObject({ streamEnd: 'cut', status: 200 });
    expect(r.proxy.exchanges[0]?.events).toHaveLength(2);
  });

  it('a request body the protocol refuses is reported too, and still forwarded as sent', async () => {
    const r = await through(
      (_, res) => answer(res, 400, '{"error":{"code":"invalid_request","message":"content: bad"}}'),
      'POST',
      '/v1/messages/sess_1',
      { content: 42 },
    );
    expect(r.journal[0].violations).toEqual([
      {
        in: 'request',
        path: 'content',
        expected: 'must be a non-empty string or an array of text blocks',
        got: 'number 42',
      },
    ]);
    expect(r.text).toBe('{"error":{"code":"invalid_request","message":"content: bad"}}');
  });

  it('prints at most five warning lines per request, then one line with the rest', async () => {
    const bad = '{"contentBlockStop":{"contentBlockIndex":-1}}';
    const sent = `${STREAM_START}${Array.from({ length: 8 }, () => bad).join(',\n')},\n${REPLY_STOP}\n]}`;
    const r = await through(
      (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(sent);
      },
      'POST',
      '/v1/messages/sess_1/stream',
      {},
    );
    expect(r.text).toBe(sent);
    expect(r.journal[0].violationCount).toBe(8);
    expect(r.proxy.lines).toHaveLength(6);
    expect(r.proxy.lines[5]).toMatch(
      /^\[parley\] proxy: 3 more protocol violations in POST \/v1\/messages\/sess_1\/stream/,
    );
    expect(r.report.rules).toHaveLength(1);
    expect(r.report.rules[0]).toMatchObject({
      path: 'events[*].contentBlockStop.contentBlockIndex',
      count: 8,
    });
  });
});
