import { createReferenceServer } from '@parley/reference-server';
import { defaults, defineTool, Parley, ToolNotDeclaredError, toolsToExtensions } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string() }),
  output: z.object({ temperatureC: z.number() }),
  run: ({ city }) => ({ temperatureC: city === 'Paris' ? 18 : 21 }),
});

const getTime = defineTool({
  name: 'get_time',
  description: 'Current time in a city',
  input: z.object({ city: z.string() }),
  run: () => ({ time: '14:00' }),
});

function setup() {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  return { server, client };
}

describe('tools declared once, on the session', () => {
  test('sessions.create({ tools }) sends them as customizations.extensions.tools beside the other customizations', async () => {
    const { server, client } = setup();
    await client.sessions.create({
      customizations: { agentId: 'assistant', product: 'docs' },
      tools: [getWeather],
    });
    expect(server.journal.last()?.body).toEqual({
      customizations: {
        agentId: 'assistant',
        product: 'docs',
        extensions: { tools: { get_weather: getWeather.definition } },
      },
    });
  });

  test('runToolLoop without tools runs the tools the session was created with', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"city":"Paris"}\n/then 18 degrees.',
    });
    expect(result.finalText).toBe('18 degrees.');
    expect(result.steps[0]?.toolResults).toMatchObject([
      { status: 'COMPLETE', output: { temperatureC: 18 } },
    ]);
  });

  test('a loop tool the session was not created with rejects the run with a ToolNotDeclaredError, before anything is sent', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    const before = server.journal.entries().length;
    let thrown: unknown;
    try {
      await client.runToolLoop({ sessionId, content: 'Hi', tools: [getWeather, getTime] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown instanceof ToolNotDeclaredError).toBe(true);
    expect(thrown).toBeInstanceOf(ToolNotDeclaredError);
    expect(thrown).toMatchObject({ sessionId, toolNames: ['get_time'], declared: ['get_weather'] });
    expect((thrown as Error).message).toContain('client.sessions.create({ tools: [...] })');
    expect(server.journal.entries()).toHaveLength(before);
  });

  test('a Full session (a model, no agent) is checked against its raw customizations.extensions.tools too', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create({
      customizations: { model: 'parley-stand-in-1', extensions: { tools: toolsToExtensions([getWeather]) } },
    });
    await expect(client.runToolLoop({ sessionId, tools: [getTime] })).rejects.toThrow(ToolNotDeclaredError);
    expect(client.sessions.declaredTools(sessionId)).toMatchObject({
      names: ['get_weather'],
      exhaustive: true,
    });
  });

  test('a session with an agent and only raw customizations is not checked: the agent may bring client tools', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create({ customizations: { agentId: 'weather' } });
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"city":"Paris"}\n/then Done.',
      tools: [getWeather],
    });
    expect(result.steps[0]?.toolResults).toMatchObject([{ name: 'get_weather', status: 'COMPLETE' }]);
  });

  test('a tool declared both in tools and in customizations.extensions.tools is refused', () => {
    const { client } = setup();
    expect(() =>
      client.sessions.create({
        customizations: { extensions: { tools: toolsToExtensions([getWeather]) } },
        tools: [getWeather],
      }),
    ).toThrow('tool "get_weather" is declared twice');
  });

  test('runToolLoop without tools, for a session this client did not create with tools, says what to pass', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    await expect(client.runToolLoop({ sessionId, content: 'Hi' })).rejects.toThrow(
      /no tools for session .*pass tools/,
    );
    await expect(client.runToolLoop({ sessionId: 'sess_elsewhere' })).rejects.toThrow(TypeError);
  });

  test('a deleted session is forgotten', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create({ tools: [getWeather] });
    await client.sessions.delete(sessionId);
    expect(client.sessions.declaredTools(sessionId)).toBeUndefined();
  });

  test('a client remembers the tools of its last defaults.tools.maxRememberedSessions sessions, the oldest forgotten first', async () => {
    const { client } = setup();
    const ids: string[] = [];
    for (let i = 0; i <= defaults.tools.maxRememberedSessions; i++)
      ids.push((await client.sessions.create({ tools: [getWeather] })).sessionId);
    expect(client.sessions.declaredTools(ids[0] ?? '')).toBeUndefined();
    expect(client.sessions.declaredTools(ids[1] ?? '')?.names).toEqual(['get_weather']);
    expect(client.sessions.declaredTools(ids.at(-1) ?? '')?.names).toEqual(['get_weather']);
  });
});
