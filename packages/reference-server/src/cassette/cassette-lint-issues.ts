import { cassetteProtocolIssues } from './cassette-check.js';
import { type Cassette, CassetteSchema } from './cassette-format.js';

/** Characters of one issue's message (a value or key a hostile file holds is never echoed whole). */
const MAX_MESSAGE_CHARS = 200;

/** One field that breaks the format or the protocol: its dotted path and what is wrong, once. */
export interface FieldIssue {
  /** `sessions.0.turns.1.usage.inputTokens`; `(root)` for the file as a whole. */
  path: string;
  message: string;
}

/**
 * Every field of a parsed cassette file that breaks the format or the protocol, all of them in one
 * pass (a load stops listing at 20): the format's issues, and the protocol's issues in the recorded
 * events of every turn that has them as objects, even when other fields break the format. One
 * entry per path, its messages joined.
 */
export function cassetteFieldIssues(raw: unknown): FieldIssue[] {
  const parsed = CassetteSchema.safeParse(raw);
  const issues: FieldIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        path: issue.path.length > 0 ? issue.path.join('.') : '(root)',
        message: issue.message,
      }));
  for (const issue of cassetteProtocolIssues(recordedEvents(raw))) {
    const at = /^([\w.]+): /.exec(issue);
    issues.push(
      at === null
        ? { path: '(root)', message: issue }
        : { path: at[1] as string, message: issue.slice(at[0].length) },
    );
  }
  const byPath = new Map<string, string[]>();
  for (const { path, message } of issues) {
    const cut = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}...` : message;
    const messages = byPath.get(path) ?? [];
    if (!messages.includes(cut)) messages.push(cut);
    byPath.set(path, messages);
  }
  return [...byPath].map(([path, messages]) => ({ path, message: messages.join('; ') }));
}

/**
 * The recorded events of a file that may break the format elsewhere: every `{ event: {...} }` at
 * its own index (sparse arrays keep the others' places), for the protocol check.
 */
function recordedEvents(raw: unknown): Parameters<typeof cassetteProtocolIssues>[0] {
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const field = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  return {
    sessions: list(field(raw, 'sessions')).map((session) => ({
      turns: list(field(session, 'turns')).map((turn) => {
        const events: { event: Record<string, unknown> }[] = [];
        list(field(turn, 'events')).forEach((entry, i) => {
          const event = field(entry, 'event');
          if (isObject(event)) events[i] = { event };
        });
        return { events };
      }),
    })),
  };
}

/**
 * Turns whose `stopReason` disagrees with the rest of the turn, as a hand edit leaves it: with the
 * recorded `messageStop` (a streamed replay sends the recorded events, a buffered one the
 * `stopReason`, so the two would answer differently), or with the content (`tool_use` without a
 * tool call waits for calls that never come; tool calls with `end_turn` are never run).
 */
export function stopReasonIssues(cassette: Cassette): FieldIssue[] {
  const issues: FieldIssue[] = [];
  cassette.sessions.forEach((session, s) => {
    session.turns.forEach((turn, t) => {
      if (turn.error !== undefined) return;
      const path = `sessions.${s}.turns.${t}.stopReason`;
      const said = turn.stopReason ?? 'end_turn';
      const streamed = turn.events
        ?.map(({ event }) => field(field(event, 'messageStop'), 'stopReason'))
        .find((reason) => typeof reason === 'string');
      if (typeof streamed === 'string' && streamed !== said) {
        issues.push({
          path,
          message:
            `is "${said}" but the turn's recorded messageStop says "${streamed}": a streamed replay sends ` +
            `"${streamed}", a buffered one "${said}"; edit both or record the turn again`,
        });
        return;
      }
      const calls = turn.content.some((block) => block.type === 'tool_use');
      if (said === 'tool_use' && !calls) {
        issues.push({
          path,
          message: 'is "tool_use" but the turn calls no tool: a client would wait for none',
        });
      } else if (said === 'end_turn' && calls) {
        issues.push({
          path,
          message:
            'is "end_turn" but the turn calls a tool: a client would not run it ("tool_use" is expected)',
        });
      }
    });
  });
  return issues;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
