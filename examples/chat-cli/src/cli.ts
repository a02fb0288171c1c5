import { DEMO_USER, type RunningServer, startServer } from '@parley/reference-server';
import { Parley, toolsToExtensions } from '@parley/sdk';
import { type Output, runChat } from './chat.js';
import { chatModel } from './chat-model.js';
import { parseMainOptions, USAGE } from './main-options.js';
import { createChatTools, type ToolEnvironment } from './tools.js';

/** The heartbeat timeout of the embedded server: short, so heartbeats show in a half-second tool call. */
const EMBEDDED_HEARTBEAT_TIMEOUT_MS = 900;

export interface CliIo {
  input: NodeJS.ReadableStream;
  output: Output;
  errors: Output;
  interactive?: boolean;
  /** Fixed clock, randomness and tool delay for tests. */
  toolEnvironment?: ToolEnvironment;
}

/** The whole command: flags, server, session, chat. Resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let options: ReturnType<typeof parseMainOptions>;
  try {
    options = parseMainOptions(argv);
  } catch (error) {
    io.errors.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    io.output.write(`${USAGE}\n`);
    return 0;
  }

  let embedded: RunningServer | undefined;
  try {
    let baseUrl = options.baseUrl;
    let token = options.token;
    if (baseUrl === undefined) {
      embedded = await startServer({
        port: 0,
        model: chatModel,
        heartbeatTimeoutMs: EMBEDDED_HEARTBEAT_TIMEOUT_MS,
      });
      baseUrl = embedded.url;
      token ??= DEMO_USER.token;
      io.output.write(`Embedded reference server at ${baseUrl}\n`);
    }
    if (token === undefined) {
      io.errors.write('--token (or PARLEY_TOKEN) is needed with --base-url\n');
      return 2;
    }
    const client = new Parley({ baseUrl, token });
    const tools = createChatTools(io.toolEnvironment);
    const { sessionId } = await client.sessions.create({
      customizations: { extensions: { tools: toolsToExtensions(tools) } },
    });
    io.output.write(
      `Session ${sessionId}. Ask "what time is it?" or "roll the dice"; "/say Hi" works too. /exit quits.\n`,
    );
    await runChat({
      client,
      sessionId,
      tools,
      input: io.input,
      output: io.output,
      ...(io.interactive === undefined ? {} : { interactive: io.interactive }),
    });
    return 0;
  } catch (error) {
    io.errors.write(`chat-cli: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await embedded?.close();
  }
}
