import type { CassetteTurn } from '../cassette/cassette-format.js';
import type { DriftDifference, DriftKind, DriftUsage } from './drift-types.js';
import { textSimilarity } from './text-similarity.js';

export { textSimilarity } from './text-similarity.js';

/** One assistant message of the deployment's reply, as the drift compares it. */
export interface LiveTurn {
  content: ReadonlyArray<{ type: string; text?: unknown; name?: unknown; input?: unknown }>;
  stopReason?: string;
  usage?: DriftUsage;
  /** A streamed reply's event kinds of this message, `messageStart` to `metadata`. */
  events?: string[];
  /** The model failed: `{ code, message }`. */
  error?: { code: string; message: string };
}

/** Characters of a text a difference shows of each side. */
const SHOWN_CHARS = 120;
/** Characters shown before the first one that differs. */
const SHOWN_BEFORE = 40;

/** What differs between a recorded turn and the live one (ignored kinds left out), and the text similarity. */
export function compareTurn(
  recorded: CassetteTurn,
  live: LiveTurn,
  settings: { ignore: ReadonlySet<DriftKind>; textSimilarity: number },
): { differences: DriftDifference[]; similarity: number } {
  const differences: DriftDifference[] = [];
  const differ = (kind: DriftKind, was: string, now: string, extra: { similarity?: number } = {}) => {
    if (!settings.ignore.has(kind) && was !== now)
      differences.push({ kind, recorded: was, live: now, ...extra });
  };
  differ('stopReason', recordedEnd(recorded), liveEnd(live));
  differ('toolCalls', toolCalls(recorded.content), toolCalls(live.content));
  if (recorded.events !== undefined && live.events !== undefined) {
    const kinds = (list: readonly string[]) => collapse(list).join(', ');
    differ('events', kinds(recorded.events.map((e) => Object.keys(e.event)[0] ?? '')), kinds(live.events));
  }
  // The whole texts are compared, not the excerpts shown: at threshold 1 any difference counts.
  const was = textOf(recorded.content);
  const now = textOf(live.content);
  const similarity = textSimilarity(was, now);
  if (
    was !== now &&
    !settings.ignore.has('text') &&
    (settings.textSimilarity >= 1 || similarity < settings.textSimilarity)
  ) {
    const at = Math.max(0, firstDifference(was, now) - SHOWN_BEFORE);
    differences.push({ kind: 'text', recorded: excerpt(was, at), live: excerpt(now, at), similarity });
  }
  differ('usage', usageText(recorded.usage), usageText(live.usage));
  return { differences, similarity };
}

function recordedEnd(turn: CassetteTurn): string {
  return turn.error === undefined ? (turn.stopReason ?? 'none') : `error ${turn.error.code}`;
}

function liveEnd(turn: LiveTurn): string {
  return turn.error === undefined ? (turn.stopReason ?? 'none') : `error ${turn.error.code}`;
}

/** `get_weather(city, units), lookup()`: tool names and their input's keys, in order. */
function toolCalls(content: LiveTurn['content']): string {
  const calls = content
    .filter((block) => block.type === 'tool_use')
    .map((block) => {
      const input = block.input;
      const keys = typeof input === 'object' && input !== null ? Object.keys(input).sort() : [];
      return `${String(block.name)}(${keys.join(', ')})`;
    });
  return calls.length === 0 ? 'none' : calls.join(', ');
}

/** Runs of one kind as one: a text of 5 words and one of 7 stream the same kinds. */
function collapse(kinds: readonly string[]): string[] {
  return kinds.filter((kind, i) => kind !== kinds[i - 1]);
}

function textOf(content: LiveTurn['content']): string {
  return content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('');
}

/** Where two different texts first differ (the shorter one's length when it starts the other). */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * `SHOWN_CHARS` of `text` from `at`, as JSON, with `...` outside the quotes where it is cut: both
 * sides start at the same place, just before their first difference, so the two excerpts differ.
 */
function excerpt(text: string, at: number): string {
  const cut = text.slice(at, at + SHOWN_CHARS);
  return `${at > 0 ? '...' : ''}${JSON.stringify(cut)}${at + SHOWN_CHARS < text.length ? '...' : ''}`;
}

function usageText(usage: DriftUsage | undefined): string {
  return usage === undefined
    ? 'none'
    : `${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.totalTokens} total`;
}
