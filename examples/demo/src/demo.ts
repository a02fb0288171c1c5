import { DEMO_USER, startServer } from '@parley/reference-server';
import { type MessageReply, Parley, type ToolTransport, toolsToExtensions } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { type Output, Transcript } from './transcript.js';
import { weatherModel } from './weather-model.js';
import { createWeatherTool } from './weather-tool.js';

/** The question the demo asks. */
export const QUESTION = "What's the weather in Paris?";
/** How long the pretend weather API takes: long enough for a few heartbeats. */
export const DEFAULT_TOOL_DELAY_MS = 600;
/**
 * The server's lease: a tool call with no heartbeat for this long is up for grabs again. Short, so
 * the SDK's heartbeat interval (a third of it) is short and its beats show up in a 600 ms call.
 */
export const HEARTBEAT_TIMEOUT_MS = 900;

export interface DemoOptions {
  output: Output;
  /** Default {@link DEFAULT_TOOL_DELAY_MS}. */
  toolDelayMs?: number;
}

/** What happened, for the caller (and the smoke test). */
export interface DemoResult {
  answer: string;
  toolStatus: string;
  heartbeats: number;
}

/**
 * Runs the demo: starts a reference server on a free port, asks a question, streams the reply,
 * runs the `get_weather` tool the model asks for (with automatic heartbeats), resumes, and streams
 * the answer. Always closes the server.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const out = new Transcript(options.output);
  const weather = createWeatherTool(options.toolDelayMs ?? DEFAULT_TOOL_DELAY_MS);
  const server = await startServer({
    port: 0,
    model: weatherModel,
    heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
  });
  try {
    out.line(out.style('dim', `Reference server (in memory) listening at ${server.url}`));
    out.line();
    const client = new Parley({ baseUrl: server.url, token: DEMO_USER.token });
    // The session advertises the tool to the model: its name, description and JSON Schema.
    const { sessionId } = await client.sessions.create({
      customizations: { extensions: { tools: toolsToExtensions([weather]) } },
    });

    out.speaker('you', 'bold');
    out.line(QUESTION);
    const first = await streamReply(client, sessionId, { content: QUESTION }, out);

    let heartbeats = 0;
    let toolStatus = 'none';
    for (const pending of first.pendingTools) {
      out.speaker('tool', 'magenta');
      out.line(
        `${pending.name}(${JSON.stringify(pending.input)})  ${out.style('dim', '← runs here, in this process')}`,
      );
      // The same tool endpoints as client.tools, with a line printed per successful heartbeat.
      const tools: ToolTransport = {
        heartbeat: async (...args) => {
          await client.tools.heartbeat(...args);
          heartbeats++;
          const note = heartbeats === 1 ? ' (the server now knows the call is being worked on)' : '';
          out.line(out.style('dim', `      ♥ heartbeat ${heartbeats}${note}`));
        },
        respond: (...args) => client.tools.respond(...args),
        fail: (...args) => client.tools.fail(...args),
      };
      const startedAt = performance.now();
      const result = await runTool(tools, {
        sessionId,
        pending,
        tool: weather,
        heartbeatTimeoutMs: first.heartbeatTimeoutMs,
      });
      const ms = Math.round(performance.now() - startedAt);
      toolStatus = result.status;
      out.speaker('tool', 'magenta');
      const shown = result.status === 'COMPLETE' ? JSON.stringify(result.output) : (result.error ?? '');
      out.line(
        `${shown}  ${out.style('dim', `(${result.status} after ${ms} ms, ${heartbeats} heartbeats)`)}`,
      );
    }

    let answer = assistantText(first);
    if (first.stopReason === 'tool_use') {
      out.line(out.style('dim', '      (every tool call is settled: resuming the conversation)'));
      answer = assistantText(await streamReply(client, sessionId, {}, out));
    }

    out.line();
    out.line(
      out.style('dim', 'The model asked for a tool; this process ran it while the SDK kept the call alive'),
    );
    out.line(
      out.style(
        'dim',
        'with heartbeats, reported the result and resumed the conversation. Next: docs/sdk.md',
      ),
    );
    return { answer, toolStatus, heartbeats };
  } finally {
    await server.close();
  }
}

/** Streams one reply, printing the assistant's text as it arrives. */
async function streamReply(
  client: Parley,
  sessionId: string,
  body: { content?: string },
  out: Transcript,
): Promise<MessageReply> {
  const stream = client.messages.stream(sessionId, body);
  let started = false;
  stream.on('text', (delta) => {
    if (!started) out.speaker('assistant', 'cyan');
    started = true;
    out.write(delta);
  });
  const reply = await stream.finalReply();
  if (started) out.line();
  return reply;
}

/** The text of the reply's last assistant message. */
function assistantText(reply: MessageReply): string {
  const last = reply.messages.filter((m) => m.role === 'assistant').at(-1);
  return last?.content.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? '';
}
