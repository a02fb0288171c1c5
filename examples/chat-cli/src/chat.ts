import { createInterface } from 'node:readline';
import { type AnyTool, type Parley, ParleyError } from '@parley/sdk';

/** Where the chat writes: `process.stdout`, or any object with `write` (a test collects the text). */
export interface Output {
  write(text: string): unknown;
}

export interface ChatOptions {
  client: Parley;
  sessionId: string;
  tools: readonly AnyTool[];
  /** The user's lines: `process.stdin`, or any readable stream of text. */
  input: NodeJS.ReadableStream;
  output: Output;
  /**
   * A person at a terminal: readline shows the `you › ` prompt and echoes what is typed. Otherwise
   * (piped input, tests) the chat prints each line it reads as `you › ...` itself.
   */
  interactive?: boolean;
}

/** What a chat did, for the caller (and the smoke test). */
export interface ChatSummary {
  turns: number;
  toolCalls: number;
}

const PROMPT = 'you › ';
export const EXIT_COMMAND = '/exit';

/**
 * Reads the user's lines until `/exit` or the end of the input. Each line goes through
 * `runToolLoop`: the reply streams as it arrives, the tools the model asks for run here (each with
 * its automatic heartbeat), and the conversation resumes until the model has answered.
 */
export async function runChat(options: ChatOptions): Promise<ChatSummary> {
  const { client, sessionId, output } = options;
  const interactive = options.interactive ?? false;
  const screen = new Screen(output);
  const heartbeats = new Map<string, number>();
  const summary: ChatSummary = { turns: 0, toolCalls: 0 };

  const lines = createInterface({
    input: options.input,
    ...(interactive ? { output: process.stdout, terminal: true, prompt: PROMPT } : { terminal: false }),
  });
  const prompt = () => interactive && lines.prompt();
  prompt();
  try {
    for await (const raw of lines) {
      const line = raw.trim();
      if (!interactive) screen.line(`${PROMPT}${raw}`);
      if (line === EXIT_COMMAND) break;
      if (line === '') {
        prompt();
        continue;
      }
      summary.turns++;
      try {
        const result = await client.runToolLoop({
          sessionId,
          content: line,
          tools: options.tools,
          stream: true,
          onToolStart: (pending) => screen.line(`tool › ${pending.name}(${JSON.stringify(pending.input)}) …`),
          onHeartbeat: (beats, pending) => {
            heartbeats.set(pending.requestId, beats);
            screen.line('       ♥ heartbeat');
          },
          onText: (delta, snapshot) => {
            // A new text block starts when its snapshot is just this delta.
            if (snapshot === delta) screen.begin('assistant › ');
            screen.write(delta);
          },
          onStep: ({ toolResults }) => {
            for (const result of toolResults) {
              summary.toolCalls++;
              const shown = result.status === 'COMPLETE' ? JSON.stringify(result.output) : result.error;
              const beats = heartbeats.get(result.requestId) ?? 0;
              screen.line(
                `tool › ${result.name} → ${shown}  (${result.status}, ${plural(beats, 'heartbeat')})`,
              );
            }
          },
        });
        screen.end();
        if (result.status === 'max_steps') screen.line('(stopped: the model kept asking for tools)');
      } catch (error) {
        screen.line(`error › ${describe(error)}`);
      }
      prompt();
    }
  } finally {
    lines.close();
  }
  screen.line('bye');
  return summary;
}

function describe(error: unknown): string {
  if (error instanceof ParleyError || error instanceof Error) return error.message;
  return String(error);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Keeps streamed text and whole lines apart: a line never starts in the middle of streamed text. */
class Screen {
  readonly #output: Output;
  #midLine = false;

  constructor(output: Output) {
    this.#output = output;
  }

  /** Starts a line that streamed text will continue. */
  begin(prefix: string): void {
    this.end();
    this.write(prefix);
  }

  write(text: string): void {
    this.#output.write(text);
    this.#midLine = !text.endsWith('\n');
  }

  /** Ends the streamed line, if one is open. */
  end(): void {
    if (this.#midLine) this.write('\n');
  }

  line(text: string): void {
    this.end();
    this.write(`${text}\n`);
  }
}
