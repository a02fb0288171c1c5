import { type ToolApprovalAnswer, ToolApprovalTimeoutError, type ToolApprover } from '@parley/sdk';
import type { LineReader } from './line-reader.js';
import type { Screen } from './screen.js';

const YES = /^\s*y(es)?\s*$/i;
const NO_WITH_REASON = /^\s*no?\b\s*(.*)$/i;
const EDIT = /^\s*e(dit)?\s+(\{.*\})\s*$/i;

/**
 * An `approve` callback for `runToolLoop` that asks the person at the terminal: it prints the call
 * and reads one line. `y` approves; `e {...}` approves with that input instead (the SDK checks it
 * with the tool's schema); `n` denies, and what follows it is the reason the model reads
 * (`n wrong address`); anything else, or the end of the input, denies. While it waits the SDK keeps
 * the call's lease with heartbeats; at the call's deadline the question is withdrawn.
 */
export function askOnTerminal(options: {
  lines: LineReader;
  screen: Screen;
  /** Who answers, recorded in the step's `approvals`. */
  who: string;
  /** Echo the answer (for piped input, which a terminal would have echoed). */
  echo: boolean;
}): ToolApprover {
  const { lines, screen, who, echo } = options;
  return async ({ name, input, signal }) => {
    screen.end();
    screen.write(`approve › ${name} ${JSON.stringify(input)}? [y/N, "n REASON" or "e EDITED_JSON"] `);
    let line: string | undefined;
    try {
      line = await lines.read(signal);
    } catch (error) {
      const why =
        error instanceof ToolApprovalTimeoutError ? "no answer before the call's deadline" : 'the call ended';
      screen.line(`(withdrawn: ${why})`);
      throw error;
    }
    // A terminal showed what was typed (and its Enter); piped input is echoed to look the same.
    if (echo) screen.write(`${line ?? ''}\n`);
    else screen.end();
    return decide(line, who);
  };
}

function decide(line: string | undefined, who: string): ToolApprovalAnswer {
  if (line === undefined) return { approved: false, reason: 'No one answered: the input ended', by: who };
  if (YES.test(line)) return { approved: true, by: who };
  const edit = EDIT.exec(line)?.[2];
  if (edit !== undefined) {
    try {
      return { approved: true, input: JSON.parse(edit) as Record<string, unknown>, by: who };
    } catch {
      return { approved: false, reason: 'The edited input was not JSON', by: who };
    }
  }
  const reason = NO_WITH_REASON.exec(line)?.[1]?.trim();
  return { approved: false, reason: reason ? reason : 'The person at the terminal said no', by: who };
}
