import type { StreamBody } from '@parley/protocol';
import {
  FAULT_HEADER,
  isInjectedDropError,
  MALFORMED_MARKER,
  parseFaultHeader,
} from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { BASE_URL, DEMO_TOKEN, expectError, harness } from '../helpers/api.js';
import { readAll, readChunk, stillPending } from './helpers.js';

const auth = { authorization: `Bearer ${DEMO_TOKEN}` };

function streamRequest(sessionId: string, content: string, fault?: string): Request {
  return new Request(`${BASE_URL}/v1/messages/${sessionId}/stream`, {
    method: 'POST',
    headers: { ...auth, ...(fault === undefined ? {} : { [FAULT_HEADER]: fault }) },
    body: JSON.stringify({ content }),
  });
}

describe('the x-parley-fault header', () => {
  it('parses comma-separated items', () => {
    expect(parseFaultHeader(' status=503, retry-after=2 ,latency=10,delay=5,cut-after=3,malformed')).toEqual({
      status: 503,
      retryAfterSeconds: 2,
      latencyMs: 10,
      delayMs: 5,
      cutAfterEvents: 3,
      malformed: true,
    });
    expect(parseFaultHeader('drop')).toEqual({ drop: true });
    expect(parseFaultHeader('drop-after=2')).toEqual({ dropAfterEvents: 2 });
    expect(parseFaultHeader('code=quota_exceeded')).toEqual({ code: 'quota_exceeded' });
  });

  it('status=503 answers 503 injected_fault with Retry-After, without handling the request', async () => {
    const h = harness();
    const res = await h.call('POST', '/v1/sessions', undefined, {
      headers: { [FAULT_HEADER]: 'status=503, retry-after=2' },
    });
    const error = expectError(res, 503, 'injected_fault');
    expect(error.details).toMatchObject({ status: 503, retryAfterSeconds: 2 });
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(h.server.sessionCount).toBe(0);
  });

  it('code= answers with that error code and its status', async () => {
    const h = harness();
    const res = await h.call('GET', '/v1/sessions', undefined, {
      headers: { [FAULT_HEADER]: 'code=quota_exceeded' },
    });
    expectError(res, 429, 'quota_exceeded');
  });

  it('a bad fault header is 400 invalid_request naming the item', async () => {
    const h = harness();
    for (const header of ['status=200', 'latency=-1', 'explode', 'drop=1', 'code=nope']) {
      const res = await h.call('GET', '/v1/sessions', undefined, { headers: { [FAULT_HEADER]: header } });
      expect(expectError(res, 400, 'invalid_request').message, header).toContain(header.split('=')[0]);
    }
  });

  it('applies only to the request that carries it', async () => {
    const h = harness();
    const faulted = h.call('GET', '/v1/sessions', undefined, { headers: { [FAULT_HEADER]: 'status=500' } });
    const plain = h.call('GET', '/v1/sessions');
    expect((await faulted).status).toBe(500);
    expect((await plain).status).toBe(200);
  });
});

describe('one-shot faults from code', () => {
  it('a one-shot 503 fault answers the next matching request only', async () => {
    const h = harness();
    h.server.faults.next({ status: 503 });
    expectError(await h.call('POST', '/v1/sessions'), 503, 'injected_fault');
    expect((await h.call('POST', '/v1/sessions')).status).toBe(201);
    expect(h.server.faults.pending).toEqual([]);
  });

  it('match on method and path leaves other requests alone; times counts requests', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    h.server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, status: 502, times: 2 });
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).status).toBe(200);
    expect((await h.call('POST', `/v1/messages/${sessionId}/stream`, { content: 'x' })).status).toBe(200);
    expect((await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x' })).status).toBe(502);
    expect(h.server.faults.pending).toMatchObject([{ status: 502, times: 1 }]);
    expect((await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x' })).status).toBe(502);
    expect((await h.call('POST', `/v1/messages/${sessionId}`, { content: 'x' })).status).toBe(200);
  });

  it('a regex path matches too, and reset() clears queued faults', async () => {
    const h = harness();
    h.server.faults.next({ match: { path: /^\/v1\/sessions$/ }, status: 500 });
    h.server.reset();
    expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
  });

  it('rejects a fault out of range', () => {
    const h = harness();
    expect(() => h.server.faults.next({ status: 200 })).toThrow(/status/);
    expect(() => h.server.faults.next({ status: 503, times: 0 })).toThrow(/times/);
  });
});

describe('timing faults on the server clock', () => {
  it('latency holds a buffered response back until the clock moved', async () => {
    const h = harness();
    const pending = h.call('GET', '/v1/sessions', undefined, { headers: { [FAULT_HEADER]: 'latency=200' } });
    await expect.poll(() => h.clock.pendingSleeps).toBe(1);
    expect(await stillPending(pending)).toBe(true);
    await h.clock.advance(199);
    expect(await stillPending(pending)).toBe(true);
    await h.clock.advance(1);
    expect((await pending).status).toBe(200);
  });

  it('latency with a status waits, then answers the error', async () => {
    const h = harness();
    h.server.faults.next({ latencyMs: 50, status: 503 });
    const pending = h.call('GET', '/v1/sessions');
    expect(await stillPending(pending)).toBe(true);
    await h.clock.advance(50);
    expect((await pending).status).toBe(503);
  });

  it('a stream sends its headers at once, then waits latency before the first event and delay between events', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.server.fetch(streamRequest(sessionId, '/say one two', 'latency=100, delay=10'));
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(await readChunk(reader)).toMatch(/^\{"sessionId":/);
    const first = readChunk(reader);
    expect(await stillPending(first)).toBe(true);
    await h.clock.advance(99);
    expect(await stillPending(first)).toBe(true);
    await h.clock.advance(1);
    expect(await first).toContain('messageStart');
    const second = readChunk(reader);
    expect(await stillPending(second)).toBe(true);
    await h.clock.advance(10);
    expect(await second).toContain('contentBlockDelta');
    await reader.cancel();
  });
});

describe('timing faults when the server closes', () => {
  it('close() ends a latency or delay wait: the requests are answered and no wait is left on the clock', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const buffered = h.call('GET', '/v1/sessions', undefined, {
      headers: { [FAULT_HEADER]: 'latency=3600000' },
    });
    h.server.faults.next({ latencyMs: 3_600_000, status: 503, match: { path: '/v1/sessions/*' } });
    const errorFault = h.call('GET', `/v1/sessions/${sessionId}`);
    const stream = await h.server.fetch(streamRequest(sessionId, '/say one two', 'latency=3600000'));
    const streamed = readAll(stream);
    await expect.poll(() => h.clock.pendingSleeps).toBe(3);
    await h.server.close();
    expect(await stillPending(Promise.all([buffered, errorFault, streamed]))).toBe(false);
    expect((await buffered).status).toBe(200);
    expect((await errorFault).status).toBe(503);
    // The stream's waits ended too: what was left of it is written at once, its JSON whole (the
    // reply close() aborted ends with the shutdown's exception event).
    const body = JSON.parse((await streamed).text) as StreamBody;
    expect(body.events.at(-1)).toMatchObject({ internalServerException: { code: 'internal_error' } });
    expect(h.clock.pendingSleeps).toBe(0);
  });
});

describe('body faults (fetch injection)', () => {
  it('cut-after ends the stream after N events with its JSON left open; the reply still completes', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.server.fetch(streamRequest(sessionId, '/say one two', 'cut-after=3'));
    const { text, error } = await readAll(res);
    expect(error).toBeUndefined();
    expect(() => JSON.parse(text)).toThrow();
    expect(text.trim().split('\n')).toHaveLength(4); // the opening line and three events
    await expect
      .poll(() => h.server.journal.last({ path: '/v1/messages/*/stream' })?.response?.complete)
      .toBe(false);
    // The reply goes on without the client: wait for it rather than count on microtask order.
    await expect
      .poll(async () => (await h.call('GET', `/v1/messages/${sessionId}`)).body.messages)
      .toHaveLength(2);
  });

  it('drop-after errors the body after N events and aborts the reply', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.server.fetch(streamRequest(sessionId, '/say one two three', 'drop-after=6'));
    const { text, error } = await readAll(res);
    expect(error).toBeInstanceOf(TypeError);
    expect(text.trim().split('\n')).toHaveLength(7);
    const exported = await h.call('GET', `/v1/messages/${sessionId}?includeDeleted=true`);
    expect(exported.body.messages.at(-1)).toMatchObject({ role: 'assistant' });
    expect(exported.body.messages.at(-1).deletedAt).not.toBeNull();
  });

  it('drop rejects server.fetch like a network error, without handling the request', async () => {
    const h = harness();
    const error = await h.server
      .fetch(
        new Request(`${BASE_URL}/v1/sessions`, {
          method: 'POST',
          headers: { ...auth, [FAULT_HEADER]: 'drop' },
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(isInjectedDropError(error)).toBe(true);
    expect(h.server.sessionCount).toBe(0);
    expect(h.server.journal.last()?.response).toEqual({ status: 0, complete: false });
  });

  it('malformed makes a buffered body invalid JSON but keeps its status', async () => {
    const h = harness();
    await h.createSession();
    const res = await h
      .call('GET', '/v1/sessions', undefined, { headers: { [FAULT_HEADER]: 'malformed' } })
      .catch((e: unknown) => e);
    // The helper parses JSON: a SyntaxError proves the body is malformed.
    expect(res).toBeInstanceOf(SyntaxError);
    const raw = await h.server.fetch(
      new Request(`${BASE_URL}/v1/sessions`, { headers: { ...auth, [FAULT_HEADER]: 'malformed' } }),
    );
    expect(raw.status).toBe(200);
    expect(await raw.text()).toMatch(
      new RegExp(`^\\{"sessions":.*${MALFORMED_MARKER.replace(/[|]/g, '\\$&')}$`),
    );
  });

  it('malformed in a stream replaces the first event with text that is not JSON', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.server.fetch(streamRequest(sessionId, 'hi', 'malformed'));
    const { text } = await readAll(res);
    const lines = text.split('\n');
    expect(lines[1]).toBe(`${MALFORMED_MARKER},`);
    expect(lines.at(-2)).toBe(']}');
    const body = JSON.parse(text.replace(`${MALFORMED_MARKER},`, '')) as StreamBody;
    expect(Object.keys(body.events[0] ?? {})).toEqual(['contentBlockDelta']);
  });
});
