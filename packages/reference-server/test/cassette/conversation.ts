import {
  createReferenceServer,
  ManualClock,
  type ReferenceServerOptions,
  type ScriptRules,
  turn,
} from '@parley/reference-server';
import { type Message, Parley } from '@parley/sdk';
import { createCassetteRecorder } from '../../src/cassette/cassette-recorder.js';
import { capturingFetch } from './capture.js';

export const UPSTREAM_TOKEN = 'upstream-secret-token-7f3a';
export const USERS = [{ name: 'app', token: UPSTREAM_TOKEN }];

export const WEATHER_TOOL = {
  get_weather: {
    name: 'get_weather',
    description: 'The weather in a city',
    requestArgs: { type: 'object' as const, properties: { city: { type: 'string' } } },
  },
};

/** The upstream's model: tool calls with fixed ids, so two recordings are the same text. */
export const UPSTREAM_SCRIPT: ScriptRules = {
  rules: [
    { match: { hasToolError: true }, reply: turn.text('Sorry, I could not find Oslo.') },
    { match: { hasToolResult: true }, reply: turn.text('It is 18 degrees in Paris, and sunny.') },
    {
      match: { lastUserText: 'Paris' },
      reply: turn.toolUses([{ id: 'tooluse_paris', name: 'get_weather', input: { city: 'Paris' } }], {
        text: 'Let me check.',
      }),
    },
    {
      match: { lastUserText: 'Oslo' },
      reply: turn.toolUses([{ id: 'tooluse_oslo', name: 'get_weather', input: { city: 'Oslo' } }]),
    },
    {
      match: { lastUserText: 'joke' },
      reply: turn.text('Why do programmers prefer dark mode? The light attracts bugs.'),
    },
  ],
};

/** An upstream (a reference server with a script) and an SDK client whose traffic is recorded. */
export function recordedUpstream(options: ReferenceServerOptions = {}) {
  const upstream = createReferenceServer({
    users: USERS,
    clock: new ManualClock(1_700_000_000_000),
    ...options,
  });
  upstream.script(UPSTREAM_SCRIPT);
  // The upstream's clock: a recording made again has the same recordedAt.
  const recorder = createCassetteRecorder({ clock: upstream.clock, upstream: 'http://upstream.test' });
  const client = new Parley({
    baseUrl: 'http://upstream.test',
    token: UPSTREAM_TOKEN,
    maxRetries: 0,
    fetch: capturingFetch(upstream.fetch, [recorder]),
  });
  return { upstream, recorder, client };
}

/** What the app saw of a conversation: messages without their times, tool calls, stop reasons. */
export interface Transcript {
  // `undefined` only for a reply the SDK's `recover` took from the session (never here).
  replies: Array<{
    stopReason: string | undefined;
    messages: Array<Omit<Message, 'createdAt'>>;
    tools: unknown[];
  }>;
  finalTexts: string[];
}

/**
 * The conversation under test: tool calls answered with a result and with an error, buffered and
 * streamed replies, two sessions.
 */
export async function converse(client: Parley): Promise<Transcript> {
  const transcript: Transcript = { replies: [], finalTexts: [] };
  const keep = (reply: {
    stopReason?: string | undefined;
    messages: Message[];
    pendingTools: Array<{ requestId: string; name: string; input: unknown; state: string }>;
  }) => {
    transcript.replies.push({
      stopReason: reply.stopReason,
      messages: reply.messages.map(({ createdAt: _createdAt, ...message }) => message),
      tools: reply.pendingTools.map(({ requestId, name, input, state }) => ({
        requestId,
        name,
        input,
        state,
      })),
    });
    return reply;
  };
  const { sessionId } = await client.sessions.create({
    customizations: { sessionData: { user: 'ana' }, extensions: { tools: WEATHER_TOOL } },
  });
  const asked = keep(await client.messages.send(sessionId, { content: 'What is the weather in Paris?' }));
  await client.tools.respond(sessionId, asked.pendingTools[0]!.requestId, { temperatureC: 18, sky: 'sunny' });
  const answered = keep(await client.messages.stream(sessionId, {}).finalReply());
  const again = keep(await client.messages.stream(sessionId, { content: 'And in Oslo?' }).finalReply());
  await client.tools.fail(sessionId, again.pendingTools[0]!.requestId, 'City not found');
  const sorry = keep(await client.messages.send(sessionId, {}));
  const second = await client.sessions.create({ customizations: { sessionData: { user: 'bo' } } });
  const joke = keep(
    await client.messages.stream(second.sessionId, { content: 'Tell me a joke' }).finalReply(),
  );
  for (const reply of [answered, sorry, joke]) {
    const last = reply.messages.at(-1)!;
    transcript.finalTexts.push(last.content.map((b) => (b.type === 'text' ? b.text : '')).join(''));
  }
  return transcript;
}
