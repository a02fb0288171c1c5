import { userInfo } from 'node:os';
import { startServer } from '@parley/reference-server';
import { Parley, ParleyError, type ToolRunResult } from '@parley/sdk';
import { askOnTerminal } from './ask-on-terminal.js';
import { LineReader } from './line-reader.js';
import { mailModel } from './mail-model.js';
import { createMailTools, Outbox } from './mail-tools.js';
import { type Output, Screen } from './screen.js';

export interface DemoIo {
  input: NodeJS.ReadableStream;
  output: Output;
  /** A person at a terminal, who sees what they type; piped input is echoed instead. */
  interactive?: boolean;
  /** Who answers the questions (recorded as `by`). Default: the user name of this process. */
  who?: string;
  /** Where the emails go; the test reads it. */
  outbox?: Outbox;
}

/** How long the model's tool calls live on the embedded server: how long a person may think. */
const TOOL_CALL_TIMEOUT_MS = 120_000;
const EXIT_COMMAND = '/exit';

/**
 * The demo: an embedded reference server, a session with two tools, and one `runToolLoop` per line
 * the user types. `send_email` needs approval, so the loop asks at the terminal before it runs.
 * Resolves with the exit code.
 */
export async function runApprovalDemo(io: DemoIo): Promise<number> {
  const output = new Screen(io.output);
  const echo = io.interactive !== true;
  const outbox = io.outbox ?? new Outbox();
  const server = await startServer({ port: 0, model: mailModel, toolCallTimeoutMs: TOOL_CALL_TIMEOUT_MS });
  const lines = new LineReader(io.input);
  try {
    output.line(`Embedded reference server at ${server.url}`);
    const client = new Parley({ baseUrl: server.url, token: 'parley-demo-token' });
    const { sessionId } = await client.sessions.create({ tools: createMailTools(outbox) });
    output.line('Ask me to "email NAME: MESSAGE" (contacts: ada, grace). /exit quits.');
    const approve = askOnTerminal({ lines, screen: output, who: io.who ?? currentUser(), echo });
    for (;;) {
      if (!echo) output.write('you › ');
      const line = await lines.read();
      if (line === undefined || line.trim() === EXIT_COMMAND) break;
      if (echo) output.line(`you › ${line}`);
      if (line.trim() === '') continue;
      try {
        await client.runToolLoop({
          sessionId,
          content: line,
          stream: true,
          approve,
          // One call at a time: two questions must not share the terminal.
          concurrency: 1,
          onText: (delta, snapshot) => {
            // A new text block starts when its snapshot is just this delta.
            if (snapshot === delta) output.end();
            output.write(snapshot === delta ? `assistant › ${delta}` : delta);
          },
          onStep: (step) => {
            for (const result of step.toolResults) output.line(describe(result));
          },
        });
        output.end();
      } catch (error) {
        output.line(
          `error › ${error instanceof ParleyError || error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    output.line('bye');
    return 0;
  } finally {
    lines.close();
    await server.close();
  }
}

/** `tool › send_email → {"id":"msg_1"}  (approved by ada)`. */
function describe(result: ToolRunResult): string {
  const shown =
    result.status === 'COMPLETE' ? JSON.stringify(result.output) : `${result.status}: ${result.error}`;
  const approval = result.approval;
  const note = approval ? `  (${approval.outcome}${approval.by ? ` by ${approval.by}` : ''})` : '';
  return `tool › ${result.name} → ${shown}${note}`;
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'the person at the terminal';
  }
}
