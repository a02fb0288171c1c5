import { ManualClock, turn } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { answer, send, startProxy, startScriptedUpstream, startUpstream } from './helpers.js';

const UPSTREAM_TOKEN = 'real-upstream-token-0123456789';

describe('tokens through the checking proxy', () => {
  it('with an upstream token: the upstream sees only it, the journal and the exchanges hold no token', async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 201, '{"sessionId":"sess_1"}'));
    const proxy = await startProxy(upstream.url, { token: UPSTREAM_TOKEN });
    const response = await send(`${proxy.url}/v1/sessions`, 'POST', {});
    expect(response.status).toBe(201);
    expect(upstream.requests[0]?.headers.authorization).toBe(`Bearer ${UPSTREAM_TOKEN}`);

    const journal = await (await proxy.control('/_parley/journal')).text();
    expect(journal).not.toContain(UPSTREAM_TOKEN);
    expect(journal).not.toContain('parley-demo-token');
    expect(JSON.parse(journal).entries[0].user).toBe('demo');
    await proxy.running.close();
    expect(JSON.stringify(proxy.exchanges)).not.toContain(UPSTREAM_TOKEN);
    expect(JSON.stringify(proxy.exchanges)).not.toContain('parley-demo-token');
  });

  it('with an upstream token: a request without a local user token is 401 and never reaches the upstream', async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 200, '{"sessions":[]}'));
    const proxy = await startProxy(upstream.url, { token: UPSTREAM_TOKEN });
    const stranger = await send(`${proxy.url}/v1/sessions`, 'GET', undefined, {
      authorization: `Bearer ${UPSTREAM_TOKEN}x`,
    });
    expect(stranger.status).toBe(401);
    expect((await stranger.json()).error.code).toBe('unauthorized');
    expect(stranger.headers.get('www-authenticate')).toBe('Bearer');
    expect(upstream.requests).toHaveLength(0);
  });

  it("without an upstream token: the client's Authorization header passes through unchanged", async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 200, '{"sessions":[]}'));
    const proxy = await startProxy(upstream.url);
    await send(`${proxy.url}/v1/sessions`, 'GET', undefined, { authorization: 'Bearer someone-elses-token' });
    expect(upstream.requests[0]?.headers.authorization).toBe('Bearer someone-elses-token');
    // The proxy's own headers stay in the proxy.
    await send(`${proxy.url}/v1/sessions`, 'GET', undefined, { 'x-parley-fault': 'latency=0' });
    expect(upstream.requests[1]?.headers['x-parley-fault']).toBeUndefined();
  });
});

describe('faults and the journal in proxy mode', () => {
  it('an error fault from the header is answered by the proxy; the upstream never sees the request', async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 200, '{"sessions":[]}'));
    const proxy = await startProxy(upstream.url);
    const response = await send(`${proxy.url}/v1/sessions`, 'GET', undefined, {
      'x-parley-fault': 'status=503',
    });
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe('injected_fault');
    expect(upstream.requests).toHaveLength(0);
    const entry = (await (await proxy.control('/_parley/journal')).json()).entries[0];
    expect(entry.fault).toEqual({ status: 503 });
  });

  it('a queued fault hits the next matching request, then the upstream answers again (a retry test against the real backend)', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream.url);
    proxy.running.server.faults.next({ status: 503, match: { method: 'POST', path: '/v1/sessions' } });
    const failed = await send(`${proxy.url}/v1/sessions`, 'POST', {});
    expect(failed.status).toBe(503);
    const retried = await send(`${proxy.url}/v1/sessions`, 'POST', {});
    expect(retried.status).toBe(201);
    expect(upstream.server.sessionCount).toBe(1);
  });

  it('a stream fault cuts the upstream reply after so many events; the journal says so', async () => {
    const upstream = await startUpstream();
    upstream.server.script([turn.text('one two three four five six')]);
    const proxy = await startProxy(upstream.url);
    const { sessionId } = await (await send(`${proxy.url}/v1/sessions`, 'POST', {})).json();
    const response = await send(
      `${proxy.url}/v1/messages/${sessionId}/stream`,
      'POST',
      { content: 'Hi' },
      { 'x-parley-fault': 'cut-after=2' },
    );
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text.match(/\n\{"/g)).toHaveLength(2);
    expect(text.startsWith(`{"sessionId":"${sessionId}","events":[`)).toBe(true);
    const entry = (await (await proxy.control('/_parley/journal')).json()).entries.at(-1);
    expect(entry.fault).toEqual({ cutAfterEvents: 2 });
    expect(entry.response).toMatchObject({ events: 2, complete: false });
    // The upstream's reply ran to its end: the whole answer is in its conversation.
    const exported = await (await send(`${upstream.url}/v1/messages/${sessionId}`, 'GET')).json();
    expect(exported.messages.at(-1).content[0].text).toBe('one two three four five six');
  });

  it('under a stream fault, an upstream that stops mid-event still gives every whole event before the body ends open', async () => {
    const delta = '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"a"}}}';
    const sent = `{"sessionId":"sess_1","events":[\n${[delta, delta, delta].join(',\n')},\n{"contentBlockDel`;
    const upstream = await startScriptedUpstream((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(sent);
    });
    const clock = new ManualClock(1_000_000);
    const proxy = await startProxy(upstream.url, {}, { clock });
    const response = await send(
      `${proxy.url}/v1/messages/sess_1/stream`,
      'POST',
      {},
      { 'x-parley-fault': 'delay=1000' },
    );
    let done = false;
    const reading = response.text().finally(() => {
      done = true;
    });
    // The events wait for the fault's delays on the proxy clock, the upstream's cut arrived long before.
    while (!done) {
      await clock.advance(1000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const text = await reading;
    expect(text).toBe(`{"sessionId":"sess_1","events":[\n${[delta, delta, delta].join(',\n')}`);
    const entry = (await (await proxy.control('/_parley/journal')).json()).entries[0];
    expect(entry.response).toMatchObject({ events: 3, complete: false });
    expect(entry.violations[0]).toMatchObject({ path: 'events[3]', got: 'the body ended inside it' });
  });

  it('the journal holds the forwarded requests with bodies, users and response summaries', async () => {
    const upstream = await startUpstream();
    upstream.server.script([turn.text('Hello there')]);
    const proxy = await startProxy(upstream.url);
    const { sessionId } = await (await send(`${proxy.url}/v1/sessions`, 'POST', {})).json();
    await (await send(`${proxy.url}/v1/messages/${sessionId}`, 'POST', { content: 'Hi' })).text();
    const entries = proxy.running.server.journal.entries();
    expect(entries.map((e) => [e.method, e.path, e.response?.status])).toEqual([
      ['POST', '/v1/sessions', 201],
      ['POST', `/v1/messages/${sessionId}`, 200],
    ]);
    expect(entries[0]?.sessionId).toBe(sessionId);
    expect(entries[1]).toMatchObject({
      body: { content: 'Hi' },
      response: { text: 'Hello there', stopReason: 'end_turn' },
    });
    expect(entries[1]?.violations).toBeUndefined();
    const page = await proxy.control('/_parley/ui/');
    expect(page.status).toBe(200);
  });
});

describe('GET /_parley/proxy/report', () => {
  it('needs the control token, like every control route', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream.url);
    const response = await fetch(`${proxy.url}/_parley/proxy/report`);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('control_token_required');
  });

  it('is 404 route_not_found on a server that is not a proxy', async () => {
    const server = await startUpstream({ control: true });
    const response = await fetch(`${server.url}/_parley/proxy/report`, {
      headers: { 'x-parley-control-token': server.server.controlToken ?? '' },
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toMatch(/not a checking proxy/);
  });
});
