import type { Tracer } from '@opentelemetry/api';
import { createReferenceServer } from '@parley/reference-server';
import { defineTool, jsonSchema, Parley, type ToolLoopResult } from '@parley/sdk';

/**
 * A tool that looks up a city's weather (made up), in 300 ms. The loop's send picked its call up
 * (the server's lease extension), so its first heartbeat goes out one beat interval after that send.
 */
export const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: jsonSchema<{ city: string }>({
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  }),
  run: async ({ city }) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { city, temperatureC: city === 'Paris' ? 18 : 21 };
  },
});

/**
 * Runs one traced tool loop against an in-process reference server: the user asks for the weather
 * in two cities, the model calls `get_weather` twice, the loop runs both calls (heartbeats
 * included), reports them and resumes, and the model answers, streamed. Two faults are queued so
 * the trace shows them: the first heartbeat fails (a `parley.heartbeat.error` event on its tool
 * run) and the first tool report gets a 503 that the SDK retries (a `parley.retry` event and
 * `http.request.resend_count` on its request span).
 */
export async function runTracedToolLoop(tracer: Tracer): Promise<ToolLoopResult> {
  // The shortest lease the SDK defends (beats every 200-250 ms): each call beats once while it works.
  const server = createReferenceServer({ heartbeatTimeoutMs: 750 });
  const client = new Parley({
    baseUrl: 'http://parley.local',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    tracer,
  });
  const { sessionId } = await client.sessions.create({ tools: [getWeather] });
  server.faults.next({ status: 503, match: { path: '/v1/tools/request/*/*/heartbeat' } });
  server.faults.next({ status: 503, retryAfterSeconds: 0, match: { path: '/v1/tools/response/*/*' } });
  return client.runToolLoop({
    sessionId,
    content:
      '/tool get_weather {"city":"Paris"}\n/tool get_weather {"city":"Rome"}\n/then 18 degrees in Paris, 21 in Rome.',
    stream: true,
  });
}
