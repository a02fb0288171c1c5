import { createReferenceServer } from '@parley/reference-server';
import { defineTool, jsonSchema, Parley, type ToolCallState } from '@parley/sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadLazyModules, settle } from './helpers.js';

const LEASE_MS = 3_000;

beforeAll(loadLazyModules);
beforeEach(() => {
  // `Date` too: the reference server's clock reads it, so a lease goes stale on fake time.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('a reply the recovery took from the session', () => {
  it('recovery never invents a heartbeat timeout: after a cut stream, a tool that outlives a 3 s lease keeps its call PROCESSING', async () => {
    const server = createReferenceServer({ heartbeatTimeoutMs: LEASE_MS });
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: (input, init) => server.fetch(new Request(input, init)),
      logLevel: 'off',
    });
    const states: ToolCallState[] = [];
    const getWeather = defineTool({
      name: 'get_weather',
      description: 'Current weather for a city',
      input: jsonSchema<{ city: string }>({
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      }),
      // Four seconds of work, longer than the lease; every 100 ms it reads its own call as
      // another worker looking for stale calls would.
      async run(_input, { sessionId, requestId }) {
        for (let i = 0; i < 40; i++) {
          await sleep(100);
          states.push((await client.tools.get(sessionId, requestId)).state);
        }
        return { temperatureC: 18 };
      },
    });
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    // The reply completes on the server (the call is stored, PENDING), but its stream is cut after
    // the answer's first event: the reply comes from the session, without heartbeatTimeoutMs.
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 5 });
    const result = await settle(
      client.runToolLoop({
        sessionId,
        content: '/tool get_weather {"city":"Paris"}\n/then 18 degrees.',
        tools: [getWeather],
        stream: true,
        recover: { backoff: () => 100 },
      }),
    );
    expect(result.steps[0]?.recovery?.map((attempt) => attempt.action)).toEqual(['use']);
    expect(result.steps[0]?.reply).toMatchObject({ stopReason: 'tool_use' });
    expect(result.steps[0]?.reply.heartbeatTimeoutMs).toBeUndefined();
    expect(result.finalText).toBe('18 degrees.');
    expect(states).toHaveLength(40);
    expect(states.filter((state) => state !== 'PROCESSING')).toEqual([]);
  });
});
