import type { Parley } from '@parley/sdk';

/** What the app's weather service answers. */
export interface Weather {
  temperatureC: number;
  sky: string;
}

/** The app's own lookup: throws when it does not know the city. */
export type LookupWeather = (city: string) => Promise<Weather>;

const GET_WEATHER = {
  name: 'get_weather',
  description: 'The current weather in a city',
  requestArgs: {
    type: 'object' as const,
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

/**
 * The "application": asks the assistant about a city, runs the tool calls it makes with the app's
 * own lookup (a failure is reported to the model), and returns the streamed final answer.
 */
export async function weatherReport(client: Parley, city: string, lookup: LookupWeather): Promise<string> {
  const { sessionId } = await client.sessions.create({
    customizations: { extensions: { tools: { get_weather: GET_WEATHER } } },
  });
  let reply = await client.messages.send(sessionId, { content: `What is the weather in ${city}?` });
  while (reply.stopReason === 'tool_use') {
    for (const call of reply.pendingTools) {
      try {
        const weather = await lookup(String(call.input.city));
        await client.tools.respond(sessionId, call.requestId, { ...weather });
      } catch (error) {
        await client.tools.fail(sessionId, call.requestId, (error as Error).message);
      }
    }
    reply = await client.messages.stream(sessionId, {}).finalReply();
  }
  const last = reply.messages.at(-1);
  return (last?.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');
}
