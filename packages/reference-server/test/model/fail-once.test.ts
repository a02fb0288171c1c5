import type { StreamBody } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { FirstTime } from '../../src/model/first-time.js';
import { expectError, harness } from '../helpers/api.js';
import { kinds } from '../helpers/stream.js';

const lastText = (reply: { messages: Array<{ content: Array<{ type: string; text?: string }> }> }) =>
  reply.messages.at(-1)?.content.find((block) => block.type === 'text')?.text;

describe('/fail-once MESSAGE', () => {
  it('the first reply to the turn fails as /fail does; resuming answers as if the line were not there', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const failed = await h.call('POST', `/v1/messages/${sessionId}`, {
      content: '/say It worked on the retry.\n/fail-once Upstream overloaded',
    });
    expect(expectError(failed, 502, 'model_error').message).toContain('Upstream overloaded');
    const retried = await h.send(sessionId);
    expect(lastText(retried)).toBe('It worked on the retry.');
    expect(retried.stopReason).toBe('end_turn');
    // Answered: nothing left to resume, and no further failure.
    expectError(await h.call('POST', `/v1/messages/${sessionId}`, {}), 409, 'nothing_to_resume');
  });

  it('streamed: the first stream ends with the model error, the resumed stream answers', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const first = await h.call<StreamBody>('POST', `/v1/messages/${sessionId}/stream`, {
      content: '/say Partial answer\n/fail-once kaput',
    });
    expect(first.status).toBe(200);
    expect(first.body.events.at(-1)).toEqual({
      modelStreamErrorException: { message: 'kaput', code: 'model_error', originalStatusCode: 502 },
    });
    const second = await h.call<StreamBody>('POST', `/v1/messages/${sessionId}/stream`, {});
    expect(kinds(second.body)).toContain('replyStop');
    expect(kinds(second.body)).not.toContain('modelStreamErrorException');
    const reply = (second.body.events.at(-1) as { replyStop: Parameters<typeof lastText>[0] }).replyStop;
    expect(lastText(reply)).toBe('Partial answer');
  });

  it('with /tool: the retry makes the tool call, and the answer after the results does not fail', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const text = '/fail-once\n/tool get_weather {"city":"Paris"}\n/then Sunny in Paris.';
    const failed = await h.call('POST', `/v1/messages/${sessionId}`, { content: text });
    expect(expectError(failed, 502, 'model_error').message).toContain(
      'The stand-in model was asked to fail once',
    );
    const retried = await h.send(sessionId);
    expect(retried.stopReason).toBe('tool_use');
    const requestId = retried.pendingTools[0]?.requestId ?? '';
    const responded = await h.call('POST', `/v1/tools/response/${sessionId}/${requestId}`, {
      response: { state: 'COMPLETE', tempC: 21 },
    });
    expect(responded.status).toBe(200);
    expect(lastText(await h.send(sessionId))).toBe('Sunny in Paris.');
  });

  it('a later message with the same line fails once again; a message of only the line is then echoed', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    for (let round = 0; round < 2; round++) {
      expectError(
        await h.call('POST', `/v1/messages/${sessionId}`, { content: '/fail-once' }),
        502,
        'model_error',
      );
      expect(lastText(await h.send(sessionId))).toBe('You said: /fail-once');
    }
  });

  it('/fail still fails every time, /fail-once beside it or not', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    await h.call('POST', `/v1/messages/${sessionId}`, { content: '/fail always\n/fail-once once' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await h.call('POST', `/v1/messages/${sessionId}`, {});
      expect(expectError(res, 502, 'model_error').message).toContain('always');
    }
  });

  it('sessions do not share their first time: the same turn in two sessions fails once in each', async () => {
    const h = harness();
    for (const sessionId of [await h.createSession(), await h.createSession()]) {
      expectError(
        await h.call('POST', `/v1/messages/${sessionId}`, { content: '/say ok\n/fail-once' }),
        502,
        'model_error',
      );
      expect(lastText(await h.send(sessionId))).toBe('ok');
    }
  });
});

describe('FirstTime', () => {
  it('is true once per key and keeps only the most recent keys', () => {
    const first = new FirstTime(2);
    expect([first.check('a'), first.check('a'), first.check('b'), first.check('c')]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    // 'a' was the oldest of three with room for two: forgotten, so a first time again.
    expect([first.check('b'), first.check('a')]).toEqual([false, true]);
  });
});
