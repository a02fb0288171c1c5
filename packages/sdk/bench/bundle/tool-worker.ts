// A tool worker: tools defined with its own schema library (zod here, not counted), run in a loop.
import { defineTool, Parley, toolsToExtensions } from '@parley/sdk';
import { z } from 'zod';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string().describe('City name') }),
  output: z.object({ tempC: z.number() }),
  run: async ({ city }) => ({ tempC: city.length }),
});
const client = new Parley({ baseUrl: 'https://parley.example', token: 'token' });
const { sessionId } = await client.sessions.create({
  customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([getWeather]) } },
});
const result = await client.runToolLoop({
  sessionId,
  content: 'Weather in Paris?',
  tools: [getWeather],
  stream: true,
});
console.log(result.finalText);
