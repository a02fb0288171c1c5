import { type MessageStreamEvent, type RecoveryAttempt, ReplyRecoveryError, StreamError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { sends, settle, setup, summary, useFakeTimeouts } from './helpers.js';

useFakeTimeouts();

const backoff = (attempt: number) => 100 * attempt;

describe('messages.stream with recover', () => {
  it('a model error mid-stream: the interrupted answer is retracted, the user message stays, a resume retries it', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    const stream = client.messages.stream(
      sessionId,
      { content: '/say Back online.\n/fail-once Upstream overloaded' },
      { recover: { backoff } },
    );
    const seen: MessageStreamEvent['type'][] = [];
    const attempts: RecoveryAttempt[] = [];
    stream.on('recovered', (attempt) => attempts.push(attempt));
    const iterated = (async () => {
      for await (const event of stream) seen.push(event.type);
    })();
    const reply = await settle(stream.finalReply());
    await iterated;

    expect(summary(attempts)).toEqual([
      { attempt: 1, maxAttempts: 3, action: 'resume', delayMs: 100, error: 'StreamError model_error' },
    ]);
    // The partial answer streamed, the SDK's recovered event, then the resume's answer.
    const recovered = seen.indexOf('recovered');
    expect(seen.slice(0, recovered)).toContain('modelStreamErrorException');
    expect(seen.slice(recovered + 1)).toContain('replyStop');
    // The reply is whole: the user message the call sent, then the answer of the resume.
    expect(reply.messages.map((m) => [m.role, m.index])).toEqual([
      ['user', 0],
      ['assistant', 2],
    ]);
    expect(await stream.finalText()).toBe('Back online.');
    // The snapshots keep the interrupted message as it streamed, never completed.
    expect(stream.messages.map((m) => [m.index, m.complete])).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
    // The content went once; the recovery resumed with {}.
    expect(sends(server)).toEqual([{ content: '/say Back online.\n/fail-once Upstream overloaded' }, {}]);
    const all = await client.messages.export(sessionId, { includeDeleted: true });
    expect(all.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(all.map((m) => [m.index, m.deletedAt === null])).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
  });

  it('a stream dropped after a few events (drop-after): resumed, and the session holds one user message', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    // Six events: the user message's four, the answer's start and first delta; the model is still
    // answering (a delay between deltas) when the connection drops.
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, dropAfterEvents: 6 });
    const content = '/delay 50\n/say one two three four';
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages
        .stream(sessionId, { content }, { recover: { onAttempt: (a) => attempts.push(a) } })
        .finalReply(),
    );
    expect(attempts.map((a) => [a.action, a.error.name])).toEqual([['resume', 'StreamError']]);
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'one two three four' }]);
    expect(sends(server)).toEqual([{ content }, {}]);
    const live = await client.messages.export(sessionId);
    expect(live.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a stream cut after its reply completed (cut-after): the reply is taken from the session, nothing is sent again', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 5 });
    const stream = client.messages.stream(sessionId, { content: '/say Complete answer.' }, { recover: true });
    const attempts: RecoveryAttempt[] = [];
    stream.on('recovered', (attempt) => attempts.push(attempt));
    const reply = await settle(stream.finalReply());
    expect(attempts.map((a) => a.action)).toEqual(['use']);
    expect(reply).toMatchObject({ sessionId, pendingTools: [] });
    // Cut before the answer's messageStop: nobody reported its stop reason, so it is not guessed.
    expect(reply.stopReason).toBeUndefined();
    expect(reply.heartbeatTimeoutMs).toBeUndefined();
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await stream.finalText()).toBe('Complete answer.');
    expect(sends(server)).toHaveLength(1);
  });

  it('a stream cut after its answer’s messageStop: the reply taken from the session has the stop reason the stream read', async () => {
    // An agent whose answers stop at two words: the stop reason is `max_tokens`, which nothing
    // in the session shows.
    const { server, client } = setup({
      agents: { terse: { systemPrompt: 'Two words at most.', parameters: { maxTokens: 2 } } },
    });
    const { sessionId } = await client.sessions.create({ customizations: { agentId: 'terse' } });
    // The user message's four events, then the answer's start, two word deltas, block stop and
    // messageStop: cut before its metadata and replyStop.
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 9 });
    const stream = client.messages.stream(sessionId, { content: '/say One two three.' }, { recover: true });
    const reply = await settle(stream.finalReply());
    expect(stream.messages.at(-1)).toMatchObject({ complete: true, stopReason: 'max_tokens' });
    expect(reply.stopReason).toBe('max_tokens');
    expect(reply.heartbeatTimeoutMs).toBeUndefined();
    expect(sends(server)).toHaveLength(1);
  });

  it('a malformed stream: the recovery reads what landed and ends with one whole answer', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, malformed: true });
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages
        .stream(
          sessionId,
          { content: '/say Parsed at last.' },
          { recover: { onAttempt: (a) => attempts.push(a) } },
        )
        .finalReply(),
    );
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.error.name).toBe('StreamError');
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Parsed at last.' }]);
    const live = await client.messages.export(sessionId);
    expect(live.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(sends(server).filter((body) => JSON.stringify(body).includes('Parsed'))).toHaveLength(1);
  });

  it('a 503 before the headers (nothing stored): the user message is sent again, once', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, status: 503 });
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages
        .stream(sessionId, { content: 'Hello' }, { recover: { onAttempt: (a) => attempts.push(a) } })
        .finalReply(),
    );
    expect(summary(attempts)).toMatchObject([
      { action: 'resend', error: 'InternalServerError injected_fault' },
    ]);
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(sends(server)).toEqual(['fault', { content: 'Hello' }]);
    const live = await client.messages.export(sessionId);
    expect(live.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('a fault on the recovery’s own resume is one more attempt, within maxAttempts', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, dropAfterEvents: 5 });
    // The first resume is dropped too, the second gets a 503: the third attempt gets the answer.
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, dropAfterEvents: 1 });
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, status: 503 });
    const content = '/delay 50\n/say Third time.';
    const attempts: RecoveryAttempt[] = [];
    const reply = await settle(
      client.messages
        .stream(sessionId, { content }, { recover: { backoff, onAttempt: (a) => attempts.push(a) } })
        .finalReply(),
    );
    expect(summary(attempts)).toEqual([
      { attempt: 1, maxAttempts: 3, action: 'resume', delayMs: 100, error: 'StreamError' },
      { attempt: 2, maxAttempts: 3, action: 'resume', delayMs: 200, error: 'StreamError' },
      {
        attempt: 3,
        maxAttempts: 3,
        action: 'resume',
        delayMs: 300,
        error: 'InternalServerError injected_fault',
      },
    ]);
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Third time.' }]);
    expect(sends(server)).toEqual([{ content }, {}, 'fault', {}]);
  });

  it('never resumes past maxAttempts: the reply fails with ReplyRecoveryError naming the last failure', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    // The send and every resume drop while the model is still answering.
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, dropAfterEvents: 6 });
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, dropAfterEvents: 2, times: 3 });
    const content = '/delay 50\n/say one two three';
    const failure = await settle(
      client.messages
        .stream(sessionId, { content }, { recover: { maxAttempts: 2, backoff } })
        .finalReply()
        .catch((error: unknown) => error),
    );
    expect(failure instanceof ReplyRecoveryError).toBe(true);
    if (!(failure instanceof ReplyRecoveryError)) return;
    expect(failure.attempts).toBe(2);
    expect(failure.message).toMatch(/the reply failed after 2 recovery attempts: The stream broke/);
    expect(failure.cause instanceof StreamError).toBe(true);
    expect(sends(server)).toEqual([{ content }, {}, {}]);
    expect(server.faults.pending).toHaveLength(1);
  });
});
