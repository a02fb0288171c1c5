import { ConflictError, NotFoundError, type Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { expectAPIError } from './assertions.js';
import { capabilities, NEEDS_DIRECTIVES, NEEDS_INTERNALS, targets, useTarget } from './target.js';

const terminal = { status: 409, code: 'tool_call_terminal' };

/** A new session whose last reply stopped for one client tool call. */
async function openCall(client: Parley, name = 'lookup') {
  const { sessionId } = await client.sessions.create();
  const reply = await client.messages.send(sessionId, { content: `/tool ${name} {"q":"contract"}` });
  const pending = reply.pendingTools[0];
  if (!pending) throw new Error('The reply has no pending tool');
  // A reply the service sent (not one the recover option took from the session) says its timeout.
  const { heartbeatTimeoutMs } = reply;
  if (heartbeatTimeoutMs === undefined) throw new Error('The reply has no heartbeatTimeoutMs');
  return { sessionId, requestId: pending.requestId, pending, reply: { ...reply, heartbeatTimeoutMs } };
}

describe.each(targets())('tool calls [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('a new call reads PENDING with its input, createdAt and deadlineAt', async () => {
      const { clientA } = target;
      const { sessionId, requestId, pending } = await openCall(clientA);
      const call = await clientA.tools.get(sessionId, requestId);
      expect(call).toMatchObject({
        sessionId,
        requestId,
        name: 'lookup',
        input: { q: 'contract' },
        state: 'PENDING',
        createdAt: pending.createdAt,
        deadlineAt: pending.deadlineAt,
        lastHeartbeatAt: null,
        settledAt: null,
      });
    });

    it('a heartbeat PROCESSING moves the call to PROCESSING and records the server time', async () => {
      const { clientA } = target;
      const { sessionId, requestId } = await openCall(clientA);
      await expect(clientA.tools.heartbeat(sessionId, requestId)).resolves.toBeUndefined();
      const call = await clientA.tools.get(sessionId, requestId);
      expect(call.state).toBe('PROCESSING');
      expect(call.lastHeartbeatAt).toEqual(expect.any(Number));
      // A second beat renews the lease.
      await clientA.tools.heartbeat(sessionId, requestId);
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('PROCESSING');
    });

    it('a response COMPLETE settles the call; an identical repeat is 200, a different one 409', async () => {
      const { clientA } = target;
      const { sessionId, requestId } = await openCall(clientA);
      await clientA.tools.heartbeat(sessionId, requestId);
      await clientA.tools.respond(sessionId, requestId, { answer: 42 });
      const settled = await clientA.tools.get(sessionId, requestId);
      expect(settled).toMatchObject({ state: 'COMPLETE', settledAt: expect.any(Number) });
      await expect(clientA.tools.respond(sessionId, requestId, { answer: 42 })).resolves.toBeUndefined();
      await expectAPIError(
        clientA.tools.respond(sessionId, requestId, { answer: 43 }),
        ConflictError,
        terminal,
      );
      expect(await clientA.tools.get(sessionId, requestId)).toEqual(settled);
    });

    it('a heartbeat on a completed call is rejected with 409', async () => {
      const { clientA } = target;
      const { sessionId, requestId } = await openCall(clientA);
      await clientA.tools.respond(sessionId, requestId, { answer: 42 });
      await expectAPIError(clientA.tools.heartbeat(sessionId, requestId), ConflictError, terminal);
    });

    it('a response straight from PENDING (no heartbeat) is accepted', async () => {
      const { clientA } = target;
      const { sessionId, requestId } = await openCall(clientA);
      await clientA.tools.respond(sessionId, requestId, { fast: true });
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('COMPLETE');
    });

    it('ERROR via the heartbeat endpoint is terminal: no heartbeat or response afterwards; the same error again is 200', async () => {
      const { clientA } = target;
      const { sessionId, requestId } = await openCall(clientA);
      await clientA.tools.heartbeat(sessionId, requestId);
      await expect(clientA.tools.fail(sessionId, requestId, 'Disk full')).resolves.toBeUndefined();
      const failed = await clientA.tools.get(sessionId, requestId);
      expect(failed).toMatchObject({ state: 'ERROR', error: 'Disk full', settledAt: expect.any(Number) });
      await expectAPIError(clientA.tools.heartbeat(sessionId, requestId), ConflictError, terminal);
      await expectAPIError(
        clientA.tools.respond(sessionId, requestId, { late: true }),
        ConflictError,
        terminal,
      );
      await expect(clientA.tools.fail(sessionId, requestId, 'Disk full')).resolves.toBeUndefined();
      await expectAPIError(
        clientA.tools.fail(sessionId, requestId, 'Another reason'),
        ConflictError,
        terminal,
      );
      expect(await clientA.tools.get(sessionId, requestId)).toEqual(failed);
    });

    it('the first terminal write wins (response then failure, failure then response)', async () => {
      const { clientA } = target;
      const first = await openCall(clientA);
      await clientA.tools.respond(first.sessionId, first.requestId, { winner: 'response' });
      await expectAPIError(
        clientA.tools.fail(first.sessionId, first.requestId, 'too late'),
        ConflictError,
        terminal,
      );
      expect((await clientA.tools.get(first.sessionId, first.requestId)).state).toBe('COMPLETE');

      const second = await openCall(clientA);
      await clientA.tools.fail(second.sessionId, second.requestId, 'failed first');
      await expectAPIError(
        clientA.tools.respond(second.sessionId, second.requestId, { winner: 'response' }),
        ConflictError,
        terminal,
      );
      expect(await clientA.tools.get(second.sessionId, second.requestId)).toMatchObject({
        state: 'ERROR',
        error: 'failed first',
      });
    });

    it('two workers racing on one call: the first terminal write wins, the other gets 409', async () => {
      const { clientA, tokenA } = target;
      const { sessionId, requestId } = await openCall(clientA);
      const workerTwo = target.client({ token: tokenA });
      await clientA.tools.heartbeat(sessionId, requestId);
      await workerTwo.tools.heartbeat(sessionId, requestId);
      const results = await Promise.allSettled([
        clientA.tools.respond(sessionId, requestId, { worker: 1 }),
        workerTwo.tools.respond(sessionId, requestId, { worker: 2 }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected');
      expect(rejected?.reason instanceof ConflictError).toBe(true);
    });

    it('a heartbeat, response or read on an unknown requestId is a 404', async () => {
      const { clientA } = target;
      const { sessionId } = await openCall(clientA);
      const notFound = { status: 404, code: 'tool_call_not_found' };
      const unknown = 'tooluse_contract_unknown';
      await expectAPIError(clientA.tools.heartbeat(sessionId, unknown), NotFoundError, notFound);
      await expectAPIError(clientA.tools.respond(sessionId, unknown, { x: 1 }), NotFoundError, notFound);
      await expectAPIError(clientA.tools.fail(sessionId, unknown, 'x'), NotFoundError, notFound);
      await expectAPIError(clientA.tools.get(sessionId, unknown), NotFoundError, notFound);
    });

    it('a heartbeat on an unknown session is a 404', async () => {
      const { clientA } = target;
      const { requestId } = await openCall(clientA);
      await expectAPIError(clientA.tools.heartbeat('sess_contract_missing', requestId), NotFoundError, {
        status: 404,
        code: 'session_not_found',
      });
    });

    it('a tool call is found only in its own session', async () => {
      const { clientA } = target;
      const { requestId } = await openCall(clientA);
      const { sessionId: otherSession } = await clientA.sessions.create();
      await expectAPIError(clientA.tools.heartbeat(otherSession, requestId), NotFoundError, {
        status: 404,
        code: 'tool_call_not_found',
      });
    });
  });

  describe.runIf(caps.internals)(NEEDS_INTERNALS, () => {
    it('times come from the server clock: the heartbeat records its receive time, not the body’s', async () => {
      const { clientA, clock } = target;
      if (!clock) throw new Error('needs the clock');
      const { sessionId, requestId, pending } = await openCall(clientA);
      expect(pending.createdAt).toBe(clock.now());
      expect(pending.deadlineAt).toBe(clock.now() + (target.server?.toolCallTimeoutMs ?? Number.NaN));
      await clock.advance(1234);
      // The SDK sends Date.now() in the body; the server keeps its own time.
      await clientA.tools.heartbeat(sessionId, requestId);
      expect((await clientA.tools.get(sessionId, requestId)).lastHeartbeatAt).toBe(clock.now());
    });

    it('a lease with no heartbeat for heartbeatTimeoutMs reads PENDING again, and can be claimed again', async () => {
      const { clientA, clock } = target;
      if (!clock) throw new Error('needs the clock');
      const { sessionId, requestId, reply } = await openCall(clientA);
      await clientA.tools.heartbeat(sessionId, requestId);
      await clock.advance(reply.heartbeatTimeoutMs - 1);
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('PROCESSING');
      await clock.advance(2);
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('PENDING');
      // Another worker may claim it.
      await target.client({ token: target.tokenA }).tools.heartbeat(sessionId, requestId);
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('PROCESSING');
    });

    it('heartbeats do not extend the absolute deadline: after it the call is ABANDONED, heartbeat and response 409', async () => {
      const { clientA, clock } = target;
      if (!clock) throw new Error('needs the clock');
      const { sessionId, requestId, pending, reply } = await openCall(clientA);
      // Keep beating until just before the deadline.
      while (clock.now() + reply.heartbeatTimeoutMs / 2 < pending.deadlineAt - 1) {
        await clientA.tools.heartbeat(sessionId, requestId);
        await clock.advance(reply.heartbeatTimeoutMs / 2);
      }
      await clock.set(pending.deadlineAt - 1);
      await clientA.tools.heartbeat(sessionId, requestId);
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('PROCESSING');
      await clock.set(pending.deadlineAt + 1);
      const call = await clientA.tools.get(sessionId, requestId);
      expect(call.state).toBe('ABANDONED');
      expect(call.error).toEqual(expect.any(String));
      await expectAPIError(clientA.tools.heartbeat(sessionId, requestId), ConflictError, terminal);
      await expectAPIError(
        clientA.tools.respond(sessionId, requestId, { late: true }),
        ConflictError,
        terminal,
      );
      await expectAPIError(clientA.tools.fail(sessionId, requestId, 'late'), ConflictError, terminal);
    });

    it('an abandoned call no longer blocks the conversation: resume is accepted', async () => {
      const { clientA, clock } = target;
      if (!clock) throw new Error('needs the clock');
      const { sessionId, pending } = await openCall(clientA);
      await clock.set(pending.deadlineAt + 1);
      await expect(clientA.messages.send(sessionId, {})).resolves.toMatchObject({ stopReason: 'end_turn' });
    });
  });
});
