// The tool-call lease extension (docs/protocol.md, "Extension: tool-call leases"): a worker's
// `parley-lease` token on a send, a heartbeat and a report makes it the call's one owner while its
// lease is live. Requests without a token behave as the plain protocol says.
import { describe, expect, it } from 'vitest';
import { expectError, type Harness, harness } from './helpers/api.js';

const LEASE = 15_000;
const A = { headers: { 'parley-lease': 'worker-a-token-0001' } };
const B = { headers: { 'parley-lease': 'worker-b-token-0002' } };
const beat = { state: 'PROCESSING', heartbeat: 123 };
const complete = { response: { state: 'COMPLETE', ok: true } };

async function pendingCall(h: Harness, sendInit?: typeof A) {
  const sessionId = await h.createSession();
  const res = await h.call('POST', `/v1/messages/${sessionId}`, { content: '/tool work {"n":1}' }, sendInit);
  const requestId = res.body.pendingTools[0].requestId as string;
  return {
    heartbeat: `/v1/tools/request/${sessionId}/${requestId}/heartbeat`,
    response: `/v1/tools/response/${sessionId}/${requestId}`,
    get: `/v1/tools/request/${sessionId}/${requestId}`,
    requestId,
  };
}

describe('tool-call leases', () => {
  it("a beat with a token answers the lease in its parley-lease-state header (the body stays empty): attempt, expiry, the lease's length, the deadline and the server's clock", async () => {
    const h = harness();
    const p = await pendingCall(h);
    const res = await h.call('POST', p.heartbeat, beat, A);
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
    expect(res.headers.get('parley-lease-state')).toBe(
      `attempt=1, leaseExpiresAt=${1_000_000 + LEASE}, heartbeatTimeoutMs=${LEASE}, deadlineAt=${1_000_000 + 600_000}, now=1000000`,
    );
    expect((await h.call('GET', p.get)).body).toMatchObject({
      attempt: 1,
      leaseExpiresAt: 1_000_000 + LEASE,
    });
  });

  it("a beat or a report with another token while the lease is live is 409 tool_call_leased, naming the holder's lease", async () => {
    const h = harness();
    const p = await pendingCall(h);
    await h.call('POST', p.heartbeat, beat, A);
    await h.clock.advance(5_000);
    for (const [path, body] of [
      [p.heartbeat, beat],
      [p.heartbeat, { state: 'ERROR', error: 'x' }],
      [p.response, complete],
    ] as const) {
      const error = expectError(await h.call('POST', path, body, B), 409, 'tool_call_leased');
      expect(error.details).toEqual({
        requestId: p.requestId,
        attempt: 1,
        leaseExpiresAt: 1_000_000 + LEASE,
      });
    }
    // The holder goes on; nothing of the refused requests was kept.
    expect((await h.call('POST', p.response, complete, A)).status).toBe(200);
    expect((await h.call('GET', p.get)).body).toMatchObject({ state: 'COMPLETE', attempt: 1 });
  });

  it('once the lease lapses another token claims the call, as attempt 2; the old holder is then refused', async () => {
    const h = harness();
    const p = await pendingCall(h);
    await h.call('POST', p.heartbeat, beat, A);
    await h.clock.advance(LEASE);
    const res = await h.call('POST', p.heartbeat, beat, B);
    expect(res.headers.get('parley-lease-state')).toMatch(/^attempt=2, /);
    expectError(await h.call('POST', p.response, complete, A), 409, 'tool_call_leased');
  });

  it("a send with a token picks its reply's calls up for it: they read PROCESSING from their creation, attempt 1, last beat at creation, leased to that token", async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.call('POST', `/v1/messages/${sessionId}`, { content: '/tool work {"n":1}' }, A);
    expect(res.body.pendingTools).toMatchObject([{ state: 'PROCESSING', createdAt: 1_000_000 }]);
    const requestId = res.body.pendingTools[0].requestId as string;
    expect((await h.call('GET', `/v1/tools/request/${sessionId}/${requestId}`)).body).toMatchObject({
      state: 'PROCESSING',
      attempt: 1,
      lastHeartbeatAt: 1_000_000,
      leaseExpiresAt: 1_000_000 + LEASE,
    });
  });

  it("a streamed send with a token shows its calls PROCESSING in the reply's pendingTools too", async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.call(
      'POST',
      `/v1/messages/${sessionId}/stream`,
      { content: '/tool work {"n":1}' },
      A,
    );
    const replyStop = (res.body.events.at(-1) as { replyStop: { pendingTools: unknown[] } }).replyStop;
    expect(replyStop.pendingTools).toMatchObject([{ state: 'PROCESSING' }]);
  });

  it("the sender's first beat with its token renews the lease and counts no new attempt", async () => {
    const h = harness();
    const p = await pendingCall(h, A);
    await h.clock.advance(5_000);
    expect((await h.call('GET', p.get)).body).toMatchObject({
      attempt: 1,
      leaseExpiresAt: 1_000_000 + LEASE,
    });
    const res = await h.call('POST', p.heartbeat, beat, A);
    expect(res.headers.get('parley-lease-state')).toMatch(
      new RegExp(`^attempt=1, leaseExpiresAt=${1_005_000 + LEASE}, `),
    );
    expect((await h.call('GET', p.get)).body).toMatchObject({
      state: 'PROCESSING',
      attempt: 1,
      lastHeartbeatAt: 1_005_000,
    });
  });

  it('another token is 409 tool_call_leased while the lease a send took lives, naming attempt 1', async () => {
    const h = harness();
    const p = await pendingCall(h, A);
    await h.clock.advance(LEASE - 1);
    const error = expectError(await h.call('POST', p.heartbeat, beat, B), 409, 'tool_call_leased');
    expect(error.details).toEqual({ requestId: p.requestId, attempt: 1, leaseExpiresAt: 1_000_000 + LEASE });
    expectError(await h.call('POST', p.response, complete, B), 409, 'tool_call_leased');
    expect((await h.call('GET', p.get)).body).toMatchObject({ state: 'PROCESSING', attempt: 1 });
  });

  it('a sender that never beats loses the call after heartbeatTimeoutMs: it reads PENDING, another token claims it as attempt 2, the sender is then refused', async () => {
    const h = harness();
    const p = await pendingCall(h, A);
    await h.clock.advance(LEASE);
    expect((await h.call('GET', p.get)).body).toMatchObject({
      state: 'PENDING',
      attempt: 1,
      leaseExpiresAt: null,
    });
    const res = await h.call('POST', p.heartbeat, beat, B);
    expect(res.headers.get('parley-lease-state')).toMatch(/^attempt=2, /);
    expectError(await h.call('POST', p.heartbeat, beat, A), 409, 'tool_call_leased');
    expectError(await h.call('POST', p.response, complete, A), 409, 'tool_call_leased');
  });

  it('a send without a token picks nothing up: its calls read PENDING, attempt 0, no beat, no lease', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.call('POST', `/v1/messages/${sessionId}`, { content: '/tool work {"n":1}' });
    expect(res.body.pendingTools).toMatchObject([{ state: 'PENDING' }]);
    const requestId = res.body.pendingTools[0].requestId as string;
    expect((await h.call('GET', `/v1/tools/request/${sessionId}/${requestId}`)).body).toMatchObject({
      state: 'PENDING',
      attempt: 0,
      lastHeartbeatAt: null,
      leaseExpiresAt: null,
    });
  });

  it('requests without a token are the plain protocol: accepted, an empty 200, counted as one worker', async () => {
    const h = harness();
    const p = await pendingCall(h);
    const res = await h.call('POST', p.heartbeat, beat);
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
    expect(res.headers.get('parley-lease-state')).toBeNull();
    await h.call('POST', p.heartbeat, beat);
    expect((await h.call('GET', p.get)).body).toMatchObject({
      state: 'PROCESSING',
      attempt: 1,
      leaseExpiresAt: null,
    });
  });

  it('a malformed token is 400 invalid_request naming the header', async () => {
    const h = harness();
    const p = await pendingCall(h);
    const error = expectError(
      await h.call('POST', p.heartbeat, beat, { headers: { 'parley-lease': 'short' } }),
      400,
      'invalid_request',
    );
    expect(error.message).toContain('parley-lease');
  });
});
