import {
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  type RecoveryAttempt,
  ReplyRecoveryError,
} from '@parley/sdk';
import { describe, expect, it, vi } from 'vitest';
import { sends, settle, setup, summary, turns, useFakeTimeouts } from './helpers.js';

useFakeTimeouts();

describe('messages.send with recover', () => {
  it('a 502 model_error: the user message stays, a resume gets the answer, and the reply holds both', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    const content = '/say Back online.\n/fail-once Upstream overloaded';
    const attempts: RecoveryAttempt[] = [];
    const { data: reply, requestId } = await settle(
      client.messages
        .send(sessionId, { content }, { recover: { backoff: () => 250, onAttempt: (a) => attempts.push(a) } })
        .withResponse(),
    );
    expect(summary(attempts)).toEqual([
      {
        attempt: 1,
        maxAttempts: 3,
        action: 'resume',
        delayMs: 250,
        error: 'InternalServerError model_error',
      },
    ]);
    // Index 1 is the retracted answer: indexes are never reused.
    expect(reply.messages.map((m) => [m.role, m.index])).toEqual([
      ['user', 0],
      ['assistant', 2],
    ]);
    expect(reply.messages[1]?.content).toEqual([{ type: 'text', text: 'Back online.' }]);
    expect(requestId).toBe(server.journal.last()?.requestId);
    expect(sends(server)).toEqual([{ content }, {}]);
  });

  it('waits the backoff before it reads the session, on the clock (fake timers), and the read comes first', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.journal.clear();
    const reply = client.messages.send(
      sessionId,
      { content: '/say Later.\n/fail-once Overloaded' },
      { recover: { backoff: (attempt) => 1_000 * attempt } },
    );
    const requests = () =>
      server.journal.entries().map((entry) => `${entry.method} ${entry.response?.status}`);
    await turns(20);
    expect(requests()).toEqual(['GET 200', 'POST 502']);
    await vi.advanceTimersByTimeAsync(999);
    await turns(20);
    expect(requests()).toEqual(['GET 200', 'POST 502']);
    await vi.advanceTimersByTimeAsync(1);
    await turns(20);
    expect(requests()).toEqual(['GET 200', 'POST 502', 'GET 200', 'POST 200']);
    expect((await reply).messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Later.' }]);
  });

  it('a malformed body (the reply completed): taken from the session without sending anything again, with no stop reason or heartbeat timeout the session does not say', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, malformed: true });
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages.send(
        sessionId,
        { content: '/say Whole.' },
        { recover: { onAttempt: (a) => attempts.push(a) } },
      ),
    );
    expect(attempts.map((a) => [a.action, a.error.name])).toEqual([['use', 'ResponseValidationError']]);
    expect(reply).toMatchObject({ sessionId, pendingTools: [] });
    // The session records neither: left out, not guessed.
    expect(reply.stopReason).toBeUndefined();
    expect(reply.heartbeatTimeoutMs).toBeUndefined();
    expect(reply.usage).toBeUndefined();
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(sends(server)).toHaveLength(1);
  });

  it('a reply that stopped for a tool is taken with its pending calls as the server reads them', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create({
      customizations: {
        agentId: 'assistant',
        extensions: {
          tools: {
            get_weather: {
              name: 'get_weather',
              description: 'Weather',
              requestArgs: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
        },
      },
    });
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, malformed: true });
    const reply = await settle(
      client.messages.send(sessionId, { content: '/tool get_weather {"city":"Paris"}' }, { recover: true }),
    );
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.pendingTools).toEqual([
      expect.objectContaining({ name: 'get_weather', input: { city: 'Paris' }, state: 'PENDING' }),
    ]);
    expect(reply.pendingTools[0]?.requestId).toBe(
      reply.messages.at(-1)?.content.find((block) => block.type === 'tool_use')?.id,
    );
  });

  it('on 409 reply_in_progress it waits and looks again, then resumes', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    // The recovery's first resume meets a reply still running.
    server.faults.next({
      match: { method: 'POST', path: '/v1/messages/*' },
      status: 502,
      code: 'model_error',
    });
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, code: 'reply_in_progress' });
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages.send(
        sessionId,
        { content: 'Hello' },
        { recover: { backoff: () => 100, onAttempt: (a) => attempts.push(a) } },
      ),
    );
    // The injected 502 stored nothing: the turn is sent again; its 409 means look again.
    expect(summary(attempts)).toEqual([
      {
        attempt: 1,
        maxAttempts: 3,
        action: 'resend',
        delayMs: 100,
        error: 'InternalServerError model_error',
      },
      {
        attempt: 2,
        maxAttempts: 3,
        action: 'resend',
        delayMs: 100,
        error: 'ConflictError reply_in_progress',
      },
    ]);
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(sends(server)).toEqual(['fault', 'fault', { content: 'Hello' }]);
    const live = await client.messages.export(sessionId);
    expect(live.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('a read of the session that fails is one more attempt: a fault on the recovery’s own read', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, status: 503 });
    // The first attempt's read fails (tried once: the client does not retry it). `lastIndex` says
    // where the conversation ends, so no read precedes the send.
    server.faults.next({ match: { method: 'GET', path: '/v1/messages/*' }, status: 500 });
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages.send(
        sessionId,
        { content: 'Hi' },
        { recover: { backoff: () => 10, onAttempt: (a) => attempts.push(a), lastIndex: -1 }, maxRetries: 2 },
      ),
      1_000,
    );
    expect(summary(attempts)).toEqual([
      {
        attempt: 2,
        maxAttempts: 3,
        action: 'resend',
        delayMs: 10,
        error: 'InternalServerError injected_fault',
      },
    ]);
    expect(attempts[0]?.error).toMatchObject({ status: 500 });
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('one retry policy: each attempt reads the session once, so 3 attempts make 3 reads, not 3 times the client’s retries', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, status: 503 });
    server.faults.next({ match: { method: 'GET', path: '/v1/messages/*' }, status: 503, times: 20 });
    server.journal.clear();
    const failure = await settle(
      client.messages
        .send(sessionId, { content: 'Hi' }, { recover: { backoff: () => 10, lastIndex: -1 } })
        .catch((error: unknown) => error),
      1_000,
    );
    expect(failure).toMatchObject({ name: 'ReplyRecoveryError', attempts: 3 });
    expect(server.journal.entries({ method: 'GET', path: '/v1/messages/*' })).toHaveLength(3);
  });

  it('a 429 on the recovery’s read is looked at again after its Retry-After, not given up', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, status: 503 });
    server.faults.next({
      match: { method: 'GET', path: '/v1/messages/*' },
      status: 429,
      retryAfterSeconds: 2,
    });
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages.send(
        sessionId,
        { content: 'Hi' },
        { recover: { backoff: () => 10, onAttempt: (a) => attempts.push(a), lastIndex: -1 } },
      ),
    );
    expect(summary(attempts)).toMatchObject([{ attempt: 2, action: 'resend', delayMs: 2_000 }]);
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a failure that is not the reply’s (a 400, a 404) is thrown as it is, with no read of the session', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.journal.clear();
    const bad = await client.messages
      .send(sessionId, { content: [] }, { recover: { lastIndex: -1 } })
      .catch((error: unknown) => error);
    expect(bad instanceof BadRequestError).toBe(true);
    expect(server.journal.entries().map((entry) => entry.method)).toEqual(['POST']);
  });

  it('a user message that did not land after a request with no answer is not sent again', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, drop: true });
    const failure = await settle(
      client.messages
        .send(sessionId, { content: 'Hi' }, { recover: { backoff: () => 0 } })
        .catch((error: unknown) => error),
    );
    expect(failure instanceof ReplyRecoveryError).toBe(true);
    expect((failure as Error).message).toMatch(
      /the user message was not stored and the request got no answer: Could not/,
    );
    expect(sends(server)).toHaveLength(1);
    expect(await client.messages.export(sessionId)).toEqual([]);
  });

  it('an abort during the wait ends the call with APIUserAbortError, and nothing more is sent', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    const controller = new AbortController();
    const reply = client.messages
      .send(
        sessionId,
        { content: '/fail-once Down' },
        { signal: controller.signal, recover: { backoff: () => 5_000 } },
      )
      .catch((error: unknown) => error);
    await turns(20);
    expect(sends(server)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    const failure = await reply;
    expect(failure instanceof APIUserAbortError).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sends(server)).toHaveLength(1);
  });

  it('without recover a model error rejects as before, and nothing else is sent', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.journal.clear();
    const failure = await client.messages
      .send(sessionId, { content: '/fail-once Down' })
      .catch((error: unknown) => error);
    expect(failure instanceof InternalServerError && failure.code).toBe('model_error');
    expect(server.journal.entries().map((entry) => entry.method)).toEqual(['POST']);
  });

  it.each([
    [Number.NaN, 'NaN (a number)'],
    [-1, '-1 (a number)'],
    [Number.POSITIVE_INFINITY, 'Infinity (a number)'],
    [2 ** 31, '2147483648 (a number)'],
    ['250', '"250" (a string)'],
  ])(
    'a backoff that answers %s is a TypeError naming recover.backoff and the value; no timer is left and nothing more is sent',
    async (delayMs, shown) => {
      const { server, client } = setup();
      const { sessionId } = await client.sessions.create();
      const attempts: RecoveryAttempt[] = [];
      const failure = await settle(
        client.messages
          .send(
            sessionId,
            { content: '/say Later.\n/fail-once Overloaded' },
            { recover: { backoff: () => delayMs as number, onAttempt: (a) => attempts.push(a) } },
          )
          .catch((error: unknown) => error),
      );
      expect(failure).toBeInstanceOf(TypeError);
      expect((failure as Error).message).toBe(
        `recovery: recover.backoff(1) must be a number of ms from 0 to 2147483647 (the longest timer), got ${shown}`,
      );
      expect(attempts).toEqual([]);
      expect(vi.getTimerCount()).toBe(0);
      expect(sends(server)).toHaveLength(1);
    },
  );

  it('bad options are a RangeError naming them', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    await expect(
      client.messages.send(sessionId, { content: 'Hi' }, { recover: { maxAttempts: 0 } }),
    ).rejects.toThrow('recover.maxAttempts must be an integer >= 1, got 0');
  });
});
