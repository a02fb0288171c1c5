import { createReferenceServer } from '@parley/reference-server';
import { defineTool, jsonSchema, Parley, type RecoveryAttempt } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { sends, settle, setup, useFakeTimeouts } from '../../recovery/helpers.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: jsonSchema<{ city: string }>({
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  }),
  run: ({ city }) => ({ temperatureC: city === 'Paris' ? 18 : 21 }),
});

const CONTENT =
  '/tool get_weather {"city":"Paris"}\n/delay 50\n/then It is 18 degrees in Paris, as measured.';

useFakeTimeouts();

describe('runToolLoop with recover', () => {
  it('a resume dropped mid-answer is resumed again; the step records the attempt and the run holds every message once', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    const seen: RecoveryAttempt[] = [];
    const text: string[] = [];
    const result = await settle(
      client.runToolLoop({
        sessionId,
        content: CONTENT,
        stream: true,
        onText: (delta) => text.push(delta),
        // Step 2's resume: its tool results (five events) are stored, then the connection drops
        // mid-answer.
        onStep: (step) => {
          if (step.step === 1)
            server.faults.next({ match: { path: '/v1/messages/*/stream' }, dropAfterEvents: 7 });
        },
        recover: { backoff: () => 100, onAttempt: (attempt) => seen.push(attempt) },
      }),
    );
    expect(result.status).toBe('done');
    expect(result.finalText).toBe('It is 18 degrees in Paris, as measured.');
    expect(
      result.steps.map((step) => step.recovery?.map((a) => [a.attempt, a.action, a.error.name])),
    ).toEqual([[], [[1, 'resume', 'StreamError']]]);
    expect(seen).toEqual(result.steps[1]?.recovery);
    // user, assistant (tool_use), the tool results the first resume stored, the answer.
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(result.messages[2]?.content).toMatchObject([{ type: 'tool_result', is_error: false }]);
    expect(sends(server)).toEqual([{ content: CONTENT }, {}, {}]);
    const live = await client.messages.export(sessionId);
    expect(live.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // What streamed of the interrupted answer came before the recovery; the whole answer after it.
    expect(text.join('')).toContain('It is 18 degrees in Paris, as measured.');
  });

  it('buffered: a 503 on the first send is sent again; the session is read once before it, never before a resume', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, status: 503 });
    server.journal.clear();
    const result = await settle(client.runToolLoop({ sessionId, content: CONTENT, recover: true }));
    expect(result.finalText).toBe('It is 18 degrees in Paris, as measured.');
    expect(result.steps.map((step) => step.recovery?.map((a) => a.action))).toEqual([['resend'], []]);
    const reads = server.journal.entries({ method: 'GET', path: '/v1/messages/*' });
    // One before the first send (where the conversation ends), one by the recovery.
    expect(reads).toHaveLength(2);
    expect(sends(server)).toEqual(['fault', { content: CONTENT }, {}]);
  });

  it('a first-event timeout: the step recovers, and the session holds one user message', async () => {
    const { server } = setup();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: (input, init) => server.fetch(new Request(input, init)),
      streamFirstEventTimeoutMs: 1_000,
      logLevel: 'off',
    });
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, latencyMs: 30_000 });
    const result = await settle(
      client.runToolLoop({ sessionId, content: CONTENT, stream: true, recover: true }),
    );
    expect(result.finalText).toBe('It is 18 degrees in Paris, as measured.');
    const [first] = result.steps[0]?.recovery ?? [];
    expect(first?.error.name).toBe('APITimeoutError');
    expect(first?.error.message).toMatch(/No stream event within 1000 ms/);
    const live = await client.messages.export(sessionId);
    expect(live.filter((m) => m.role === 'user' && m.content[0]?.type === 'text')).toHaveLength(1);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('without recover, a step has no recovery field and a dropped stream rejects the run', async () => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: (input, init) => server.fetch(new Request(input, init)),
    });
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    const ok = await settle(client.runToolLoop({ sessionId, content: CONTENT }));
    expect(ok.steps.every((step) => !('recovery' in step))).toBe(true);
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, dropAfterEvents: 6 });
    await expect(
      settle(client.runToolLoop({ sessionId, content: '/delay 50\n/say one two three', stream: true })),
    ).rejects.toMatchObject({ name: 'StreamError' });
  });
});
