import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley, runToolLoop, toolsToExtensions } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { sendsWithoutLease } from '../../helpers/sends-without-lease.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string() }),
  output: z.object({ temperatureC: z.number() }),
  run: async ({ city }) => ({ temperatureC: city === 'Paris' ? 18 : 21 }),
});

const getTime = defineTool({
  name: 'get_time',
  description: 'Current time in a city',
  input: z.object({ city: z.string() }),
  run: ({ city }) => ({ time: city === 'Paris' ? '14:00' : '13:00' }),
});

/** `pickup: false`: the server shows a send's calls PENDING (no lease extension's send pickup). */
async function setup({ pickup = true } = {}) {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: pickup ? (input, init) => server.fetch(new Request(input, init)) : sendsWithoutLease(server.fetch),
  });
  const { sessionId } = await client.sessions.create({
    customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([getWeather, getTime]) } },
  });
  return { server, client, sessionId };
}

describe('runToolLoop against the reference server', () => {
  test('runs the model-requested tools with heartbeats, submits them, resumes and returns the answer', async () => {
    const { client, sessionId } = await setup();
    const result = await runToolLoop(client, {
      sessionId,
      content:
        '/tool get_weather {"city":"Paris"}\n/tool get_time {"city":"Paris"}\n/then 18 degrees at 14:00 in Paris.',
      tools: [getWeather, getTime],
    });
    expect(result).toMatchObject({
      status: 'done',
      stopReason: 'end_turn',
      finalText: '18 degrees at 14:00 in Paris.',
    });
    expect(result.steps).toHaveLength(2);
    const [weather, time] = result.steps[0]?.toolResults ?? [];
    expect(weather).toMatchObject({ name: 'get_weather', status: 'COMPLETE', output: { temperatureC: 18 } });
    expect(time).toMatchObject({ name: 'get_time', status: 'COMPLETE', output: { time: '14:00' } });
    const call = await client.tools.get(sessionId, weather?.requestId ?? '');
    expect(call.state).toBe('COMPLETE');
    expect(call.lastHeartbeatAt).not.toBeNull();
    // The messages of the run, in index order: user, assistant (tool_use), tool results, answer.
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(result.messages.map((m) => m.index)).toEqual([0, 1, 2, 3]);
    expect(result.messages[2]?.content).toMatchObject([
      { type: 'tool_result', tool_use_id: weather?.requestId, is_error: false },
      { type: 'tool_result', tool_use_id: time?.requestId, is_error: false },
    ]);
  });

  test('streams each reply and forwards text deltas', async () => {
    const { client, sessionId } = await setup();
    const deltas: string[] = [];
    const result = await runToolLoop(client, {
      sessionId,
      content: '/say Checking.\n/tool get_weather {"city":"Oslo"}\n/then Oslo is at 21 degrees.',
      tools: [getWeather],
      stream: true,
      onText: (delta) => deltas.push(delta),
    });
    expect(result.finalText).toBe('Oslo is at 21 degrees.');
    expect(deltas.join('')).toBe('Checking.Oslo is at 21 degrees.');
  });

  test('an unknown tool and invalid input go back to the model as tool errors', async () => {
    const { client, sessionId } = await setup();
    const result = await runToolLoop(client, {
      sessionId,
      content: '/tool teleport {"to":"Mars"}\n/tool get_weather {"city":3}',
      tools: [getWeather],
    });
    expect(result.status).toBe('done');
    const [teleport, weather] = result.steps[0]?.toolResults ?? [];
    expect(teleport).toMatchObject({
      status: 'ERROR',
      error: 'Unknown tool "teleport". Available tools: get_weather',
    });
    expect(weather).toMatchObject({ status: 'ERROR' });
    expect(weather?.error).toMatch(/^Invalid input for tool "get_weather"/);
    expect(result.finalText).toContain(
      'Tool teleport failed: Unknown tool "teleport". Available tools: get_weather',
    );
    expect(result.finalText).toContain('Tool get_weather failed: Invalid input for tool "get_weather"');
  });

  test('stops at maxSteps with the tool calls of the last step settled, so a later resume works', async () => {
    const { client, sessionId } = await setup();
    const capped = await runToolLoop(client, {
      sessionId,
      content: '/tool get_weather {"city":"Rome"}\n/then Rome is warm.',
      tools: [getWeather],
      maxSteps: 1,
    });
    expect(capped).toMatchObject({ status: 'max_steps', stopReason: 'tool_use' });
    const resumed = await runToolLoop(client, { sessionId, tools: [getWeather] });
    expect(resumed).toMatchObject({ status: 'done', finalText: 'Rome is warm.' });
  });

  test('a second worker on a settled call learns it from the heartbeat (409) and reports nothing', async () => {
    const { client, sessionId } = await setup();
    const reply = await client.messages.send(sessionId, { content: '/tool get_weather {"city":"Paris"}' });
    const pending = reply.pendingTools[0];
    if (!pending) throw new Error('expected a pending tool');
    const first = await runTool(client, { sessionId, pending, tool: getWeather });
    expect(first.status).toBe('COMPLETE');
    const other = defineTool({ ...getWeather, run: () => ({ temperatureC: -1 }) });
    const second = await runTool(client, { sessionId, pending, tool: other });
    // The first beat is sent at once and awaited before any report: its 409 marks the call lost.
    expect(second).toMatchObject({
      status: 'LOST',
      cause: { name: 'ToolCallLostError', reason: 'ABANDONED' },
    });
    expect((await client.tools.get(sessionId, pending.requestId)).state).toBe('COMPLETE');
  });
});

describe('the client shortcuts', () => {
  test('client.tools.run runs one pending call and reports its output', async () => {
    const { client, sessionId } = await setup();
    const reply = await client.messages.send(sessionId, { content: '/tool get_weather {"city":"Oslo"}' });
    const [pending] = reply.pendingTools;
    if (pending === undefined) throw new Error('expected a pending tool');
    const result = await client.tools.run(sessionId, pending, getWeather, {
      heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
    });
    expect(result).toMatchObject({ status: 'COMPLETE', output: { temperatureC: 21 } });
    expect((await client.tools.get(sessionId, pending.requestId)).state).toBe('COMPLETE');
  });

  test('the callbacks get the call as the server reads it: PROCESSING from its start when the send picked it up (lease extension)', async () => {
    const { client, sessionId } = await setup();
    const seen: string[] = [];
    const readOwnCall = defineTool({
      ...getTime,
      run: async (_input, { sessionId, requestId }) => ({
        time: `read as ${(await client.tools.get(sessionId, requestId)).state}`,
      }),
    });
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_time {"city":"Paris"}\n/then Done.',
      tools: [readOwnCall],
      onToolStart: (pending) => seen.push(`start ${pending.state}`),
      onHeartbeat: (beats, pending) => seen.push(`beat ${beats} ${pending.state}`),
    });
    // Held from the send on: no beat was due before the call ended.
    expect(seen).toEqual(['start PROCESSING']);
    expect(result.steps[0]?.toolResults[0]).toMatchObject({
      status: 'COMPLETE',
      output: { time: 'read as PROCESSING' },
    });
  });

  test('the callbacks get the call as the server reads it: without the send pickup, PENDING at its start, PROCESSING once a beat succeeded', async () => {
    const { client, sessionId } = await setup({ pickup: false });
    const seen: string[] = [];
    let read: (state: Promise<string>) => void = () => {};
    const onServer = new Promise<string>((resolve) => {
      read = resolve;
    });
    // The handler waits for the server's answer, so the call is still running when it is read.
    const slowTime = defineTool({
      ...getTime,
      run: async () => ({ time: `read as ${await onServer}` }),
    });
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_time {"city":"Paris"}\n/then Done.',
      tools: [slowTime],
      onToolStart: (pending) => seen.push(`start ${pending.state}`),
      onHeartbeat: (beats, pending) => {
        seen.push(`beat ${beats} ${pending.state}`);
        read(client.tools.get(sessionId, pending.requestId).then((call) => call.state));
      },
    });
    expect(seen).toEqual(['start PENDING', 'beat 1 PROCESSING']);
    expect(result.steps[0]?.toolResults[0]).toMatchObject({
      status: 'COMPLETE',
      output: { time: 'read as PROCESSING' },
    });
  });

  test('client.runToolLoop drives the same loop as runToolLoop(client, ...)', async () => {
    const { client, sessionId } = await setup();
    const started: string[] = [];
    const beats: number[] = [];
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_time {"city":"Paris"}\n/then It is 14:00.',
      tools: [getTime],
      onToolStart: (pending) => started.push(pending.name),
      onHeartbeat: (count) => beats.push(count),
    });
    expect(result).toMatchObject({ status: 'done', finalText: 'It is 14:00.' });
    expect(started).toEqual(['get_time']);
    // The send picked the call up: it ended before its first beat was due, and needed none.
    expect(beats).toEqual([]);
  });
});
