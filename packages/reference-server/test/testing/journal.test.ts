import { FAULT_HEADER } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/api.js';

describe('the journal', () => {
  it('records method, path, user, request body, status, reply summary, time and request id', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.clock.advance(5);
    const res = await h.call('POST', `/v1/messages/${sessionId}`, {
      content: '/tool get_weather {"city":"Oslo"}',
    });
    const entry = h.server.journal.last();
    expect(entry).toMatchObject({
      seq: 2,
      requestId: res.headers.get('x-request-id'),
      time: 1_000_005,
      durationMs: 0,
      method: 'POST',
      path: `/v1/messages/${sessionId}`,
      query: '',
      user: 'demo',
      sessionId,
      body: { content: '/tool get_weather {"city":"Oslo"}' },
      response: {
        status: 200,
        stopReason: 'tool_use',
        pendingTools: ['get_weather'],
        text: '',
        complete: true,
      },
    });
  });

  it("records a request's W3C traceparent header, and none for a request without one", async () => {
    const h = harness();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await h.call('GET', '/v1/sessions', undefined, { headers: { traceparent } });
    expect(h.server.journal.last()?.traceparent).toBe(traceparent);
    await h.call('GET', '/v1/sessions');
    expect(h.server.journal.last()).not.toHaveProperty('traceparent');
  });

  it('takes the session id of a create from its response', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    expect(h.server.journal.entries({ sessionId })).toHaveLength(1);
  });

  it('summarizes a streamed reply: events and their times, text, stop reason', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.call('POST', `/v1/messages/${sessionId}/stream`, { content: '/say Hello there.' });
    const { eventTimes, ...response } = h.server.journal.last()?.response ?? { status: -1, complete: false };
    expect(eventTimes?.map((t) => t.kind)).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
      'replyStop',
    ]);
    // The clock did not move: every event was written at once.
    expect(new Set(eventTimes?.map((t) => t.atMs))).toEqual(new Set([0]));
    expect(response).toEqual({
      status: 200,
      events: 11,
      text: 'Hello there.',
      stopReason: 'end_turn',
      pendingTools: [],
      complete: true,
    });
  });

  it('records errors, unauthenticated requests and injected faults', async () => {
    const h = harness();
    await h.call('GET', '/v1/sessions', undefined, { token: null });
    await h.call('GET', '/v1/sessions', undefined, { headers: { [FAULT_HEADER]: 'status=503' } });
    const [unauthorized, faulted] = h.server.journal.entries();
    expect(unauthorized).not.toHaveProperty('user');
    expect(unauthorized?.response).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    expect(faulted?.fault).toEqual({ status: 503 });
    expect(faulted?.response).toMatchObject({ status: 503, error: { code: 'injected_fault' } });
  });

  it('keeps a huge request body truncated, and text that is not JSON as text', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x'.repeat(100_000) });
    const big = h.server.journal.last();
    expect(big?.bodyTruncated).toBe(true);
    expect(typeof big?.body === 'string' && big.body.length).toBe(64 * 1024);
    await h.call('POST', `/v1/messages/${sessionId}`, undefined, { rawBody: 'not json' });
    expect(h.server.journal.last()?.body).toBe('not json');
  });

  it('entries are snapshots, limited to journalLimit, and clear() empties it', async () => {
    const h = harness({ journalLimit: 2 });
    for (let i = 0; i < 3; i++) await h.call('GET', '/v1/sessions');
    const entries = h.server.journal.entries();
    expect(entries.map((e) => e.seq)).toEqual([2, 3]);
    entries[0]!.method = 'CHANGED';
    expect(h.server.journal.entries()[0]?.method).toBe('GET');
    h.server.journal.clear();
    expect(h.server.journal.size).toBe(0);
  });
});
