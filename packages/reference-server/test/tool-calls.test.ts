import { ToolCallSchema } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { expectError, type Harness, harness } from './helpers/api.js';

const HEARTBEAT_TIMEOUT = 15_000;
const TOOL_TIMEOUT = 600_000;

async function withPendingCalls(h: Harness, text = '/tool get_weather {"city":"Paris"}') {
  const sessionId = await h.createSession();
  const reply = await h.send(sessionId, text);
  const ids = reply.pendingTools.map((t) => t.requestId);
  const paths = (id: string) => ({
    heartbeat: `/v1/tools/request/${sessionId}/${id}/heartbeat`,
    response: `/v1/tools/response/${sessionId}/${id}`,
    get: `/v1/tools/request/${sessionId}/${id}`,
  });
  return { sessionId, reply, ids, paths, requestId: ids[0] ?? '', p: paths(ids[0] ?? '') };
}

const beat = { state: 'PROCESSING', heartbeat: 123 };
const complete = (fields: object = {}) => ({ response: { state: 'COMPLETE', ...fields } });

describe('tool calls', () => {
  it('a tool_use stops the reply with stopReason tool_use and returns the PENDING call with its deadline', async () => {
    const h = harness();
    const { reply, requestId } = await withPendingCalls(h);
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.pendingTools).toEqual([
      {
        requestId,
        name: 'get_weather',
        input: { city: 'Paris' },
        state: 'PENDING',
        createdAt: 1_000_000,
        deadlineAt: 1_000_000 + TOOL_TIMEOUT,
      },
    ]);
    expect(reply.heartbeatTimeoutMs).toBe(HEARTBEAT_TIMEOUT);
  });

  it('several tool_use blocks in one turn are all returned, in order', async () => {
    const h = harness();
    const { reply } = await withPendingCalls(h, '/tool a {"n":1}\n/tool b {"n":2}\n/tool c {}');
    expect(reply.pendingTools.map((t) => [t.name, t.input])).toEqual([
      ['a', { n: 1 }],
      ['b', { n: 2 }],
      ['c', {}],
    ]);
  });

  it('GET the tool call shows it as the server sees it now', async () => {
    const h = harness();
    const { sessionId, requestId, p } = await withPendingCalls(h);
    const res = await h.call('GET', p.get);
    expect(res.status).toBe(200);
    expect(ToolCallSchema.parse(res.body)).toEqual({
      sessionId,
      requestId,
      name: 'get_weather',
      input: { city: 'Paris' },
      state: 'PENDING',
      createdAt: 1_000_000,
      deadlineAt: 1_000_000 + TOOL_TIMEOUT,
      lastHeartbeatAt: null,
      settledAt: null,
      // The lease extension's fields: no worker has beaten it, no lease is held.
      attempt: 0,
      leaseExpiresAt: null,
    });
    expectError(
      await h.call('GET', `/v1/tools/request/${sessionId}/tooluse_nope`),
      404,
      'tool_call_not_found',
    );
  });

  it('a PROCESSING heartbeat answers 200 with an empty body and records the server’s receive time', async () => {
    const h = harness();
    const { p } = await withPendingCalls(h);
    await h.clock.advance(1_000);
    const res = await h.call('POST', p.heartbeat, { state: 'PROCESSING', heartbeat: 42 });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const call = (await h.call('GET', p.get)).body;
    expect(call.state).toBe('PROCESSING');
    expect(call.lastHeartbeatAt).toBe(1_001_000);
  });

  it('a heartbeat on a missing session or request is a 404', async () => {
    const h = harness();
    const { sessionId } = await withPendingCalls(h);
    expectError(
      await h.call('POST', '/v1/tools/request/sess_nope/x/heartbeat', beat),
      404,
      'session_not_found',
    );
    expectError(
      await h.call('POST', `/v1/tools/request/${sessionId}/x/heartbeat`, beat),
      404,
      'tool_call_not_found',
    );
    expectError(
      await h.call('POST', `/v1/tools/response/${sessionId}/x`, complete()),
      404,
      'tool_call_not_found',
    );
  });

  it('without heartbeats for heartbeatTimeoutMs a PROCESSING call reads as PENDING again (claimable)', async () => {
    const h = harness();
    const { p } = await withPendingCalls(h);
    await h.call('POST', p.heartbeat, beat);
    await h.clock.advance(HEARTBEAT_TIMEOUT - 1);
    expect((await h.call('GET', p.get)).body.state).toBe('PROCESSING');
    await h.clock.advance(1);
    expect((await h.call('GET', p.get)).body.state).toBe('PENDING');
    expect((await h.call('POST', p.heartbeat, beat)).status).toBe(200);
    expect((await h.call('GET', p.get)).body.state).toBe('PROCESSING');
  });

  it('the heartbeat timeout is configurable', async () => {
    const h = harness({ heartbeatTimeoutMs: 500 });
    const { p, reply } = await withPendingCalls(h);
    expect(reply.heartbeatTimeoutMs).toBe(500);
    await h.call('POST', p.heartbeat, beat);
    await h.clock.advance(500);
    expect((await h.call('GET', p.get)).body.state).toBe('PENDING');
  });

  it('the absolute deadline abandons the call even while heartbeats keep coming, and answers 409 after', async () => {
    const h = harness();
    const { p } = await withPendingCalls(h);
    for (let t = 0; t < TOOL_TIMEOUT; t += 10_000) {
      expect((await h.call('POST', p.heartbeat, beat)).status).toBe(200);
      await h.clock.advance(10_000);
    }
    const call = (await h.call('GET', p.get)).body;
    expect(call.state).toBe('ABANDONED');
    expect(call.settledAt).toBe(1_000_000 + TOOL_TIMEOUT);
    expect(call.error).toMatch(/^Tool call abandoned: /);
  });

  it('a heartbeat on an abandoned call is rejected with 409', async () => {
    const h = harness({ toolCallTimeoutMs: 1_000 });
    const { p } = await withPendingCalls(h);
    await h.clock.advance(1_000);
    expectError(await h.call('POST', p.heartbeat, beat), 409, 'tool_call_terminal');
    expectError(await h.call('POST', p.heartbeat, { state: 'ERROR', error: 'x' }), 409, 'tool_call_terminal');
    expectError(await h.call('POST', p.response, complete()), 409, 'tool_call_terminal');
  });

  it('a heartbeat on a completed call is rejected with 409', async () => {
    const h = harness();
    const { p } = await withPendingCalls(h);
    expect((await h.call('POST', p.response, complete({ t: 1 }))).status).toBe(200);
    const error = expectError(await h.call('POST', p.heartbeat, beat), 409, 'tool_call_terminal');
    expect(error.details).toMatchObject({ state: 'COMPLETE' });
  });

  it('a response marks the call COMPLETE with 200 and an empty body, from PENDING or PROCESSING', async () => {
    const h = harness();
    const { ids, paths } = await withPendingCalls(h, '/tool a {}\n/tool b {}');
    const [a, b] = ids.map(paths);
    await h.call('POST', b!.heartbeat, beat);
    for (const p of [a!, b!]) {
      const res = await h.call('POST', p.response, complete({ ok: true }));
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect((await h.call('GET', p.get)).body).toMatchObject({ state: 'COMPLETE', settledAt: 1_000_000 });
    }
  });

  it('the first terminal write wins; an identical repeated response is 200 and changes nothing', async () => {
    const h = harness();
    const { p } = await withPendingCalls(h);
    await h.call('POST', p.response, complete({ a: 1, b: [1, 2] }));
    await h.clock.advance(5);
    expect(
      (await h.call('POST', p.response, { response: { b: [1, 2], a: 1, state: 'COMPLETE' } })).status,
    ).toBe(200);
    expect((await h.call('GET', p.get)).body.settledAt).toBe(1_000_000);
    expectError(await h.call('POST', p.response, complete({ a: 2 })), 409, 'tool_call_terminal');
    expectError(
      await h.call('POST', p.heartbeat, { state: 'ERROR', error: 'late' }),
      409,
      'tool_call_terminal',
    );
  });

  it('ERROR via heartbeat is terminal: the same message repeated is 200, anything else 409', async () => {
    const h = harness();
    const { p } = await withPendingCalls(h);
    await h.call('POST', p.heartbeat, beat);
    expect((await h.call('POST', p.heartbeat, { state: 'ERROR', error: 'disk full' })).status).toBe(200);
    expect((await h.call('GET', p.get)).body).toMatchObject({ state: 'ERROR', error: 'disk full' });
    expect((await h.call('POST', p.heartbeat, { state: 'ERROR', error: 'disk full' })).status).toBe(200);
    expectError(
      await h.call('POST', p.heartbeat, { state: 'ERROR', error: 'other' }),
      409,
      'tool_call_terminal',
    );
    expectError(await h.call('POST', p.heartbeat, beat), 409, 'tool_call_terminal');
    expectError(await h.call('POST', p.response, complete()), 409, 'tool_call_terminal');
  });

  it.each([
    ['a heartbeat without its timestamp', 'heartbeat', { state: 'PROCESSING' }],
    ['an ERROR without a message', 'heartbeat', { state: 'ERROR' }],
    ['an unknown heartbeat state', 'heartbeat', { state: 'DONE', heartbeat: 1 }],
    ['a response whose state is not COMPLETE', 'response', { response: { state: 'ERROR' } }],
    ['a response without response', 'response', {}],
  ] as const)('%s is a 400 invalid_request', async (_name, kind, body) => {
    const h = harness();
    const { p } = await withPendingCalls(h);
    expectError(await h.call('POST', p[kind], body), 400, 'invalid_request');
  });

  it('resuming before all calls are settled is a 409 tool_calls_open naming each open call', async () => {
    const h = harness();
    const { sessionId, ids, paths } = await withPendingCalls(h, '/tool a {}\n/tool b {}');
    await h.call('POST', paths(ids[0]!).response, complete());
    await h.call('POST', paths(ids[1]!).heartbeat, beat);
    for (const body of [{}, { content: 'new question' }]) {
      const error = expectError(
        await h.call('POST', `/v1/messages/${sessionId}`, body),
        409,
        'tool_calls_open',
      );
      expect(error.details?.openToolCalls).toEqual([{ requestId: ids[1], name: 'b', state: 'PROCESSING' }]);
    }
  });

  it('new content while the calls are settled but not resumed is a 409 resume_required', async () => {
    const h = harness();
    const { sessionId, p } = await withPendingCalls(h);
    await h.call('POST', p.response, complete());
    expectError(
      await h.call('POST', `/v1/messages/${sessionId}`, { content: 'next' }),
      409,
      'resume_required',
    );
  });

  it('resume with nothing to resume is a 409 nothing_to_resume', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    expectError(await h.call('POST', `/v1/messages/${sessionId}`, {}), 409, 'nothing_to_resume');
    await h.send(sessionId, 'hello');
    expectError(await h.call('POST', `/v1/messages/${sessionId}`, {}), 409, 'nothing_to_resume');
  });

  it('a resume inserts one user message answering every tool_use in order: COMPLETE as json, ERROR and ABANDONED as errors', async () => {
    const h = harness({ toolCallTimeoutMs: 60_000 });
    const { sessionId, ids, paths, reply } = await withPendingCalls(h, '/tool a {}\n/tool b {}\n/tool c {}');
    await h.call('POST', paths(ids[0]!).response, complete({ temperatureC: 21, conditions: 'sunny' }));
    await h.call('POST', paths(ids[1]!).heartbeat, { state: 'ERROR', error: 'service down' });
    await h.clock.advance(60_000); // c is abandoned
    const resumed = await h.send(sessionId);
    const [results, answer] = resumed.messages;
    expect(results?.role).toBe('user');
    expect(results?.index).toBe((reply.messages.at(-1)?.index ?? 0) + 1);
    expect(results?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: ids[0],
        content: [{ type: 'json', json: { temperatureC: 21, conditions: 'sunny' } }],
        is_error: false,
      },
      {
        type: 'tool_result',
        tool_use_id: ids[1],
        content: [{ type: 'text', text: 'service down' }],
        is_error: true,
      },
      {
        type: 'tool_result',
        tool_use_id: ids[2],
        content: [{ type: 'text', text: expect.stringMatching(/^Tool call abandoned: /) }],
        is_error: true,
      },
    ]);
    expect(answer?.role).toBe('assistant');
    expect(resumed.stopReason).toBe('end_turn');
    // The stand-in model reacts to each result.
    const text = JSON.stringify(answer?.content);
    expect(text).toContain('failed');
    expect(text).toContain('abandoned');
  });

  it('tool calls of an earlier turn stay readable after the conversation moved on', async () => {
    const h = harness();
    const { sessionId, p } = await withPendingCalls(h);
    await h.call('POST', p.response, complete());
    await h.send(sessionId);
    await h.send(sessionId, 'more');
    expect((await h.call('GET', p.get)).body.state).toBe('COMPLETE');
  });
});
