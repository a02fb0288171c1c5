import type { CassetteTurn } from '../cassette/cassette-format.js';
import type { DriftDifference, DriftKind, DriftUsage } from './drift-types.js';

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
/** Above this many words on a side, similarity is counted on word bags, not in order. */
const MAX_ORDERED_WORDS = 2000;

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
  const was = textOf(recorded.content);
  const now = textOf(live.content);
  const similarity = textSimilarity(was, now);
  if (was !== now && similarity < settings.textSimilarity) {
    differ('text', shown(was), shown(now), { similarity });
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

function shown(text: string): string {
  return JSON.stringify(text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}...` : text);
}

function usageText(usage: DriftUsage | undefined): string {
  return usage === undefined
    ? 'none'
    : `${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.totalTokens} total`;
}

/**
 * How alike two texts are, 0 to 1: twice the words they share in order (their longest common
 * subsequence) over their words in all; on long texts, the words they share in any order. Two
 * empty texts are alike (1).
 */
export function textSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = a.split(/\s+/).filter((w) => w !== '');
  const y = b.split(/\s+/).filter((w) => w !== '');
  if (x.length + y.length === 0) return 1;
  const shared = x.length > MAX_ORDERED_WORDS || y.length > MAX_ORDERED_WORDS ? sharedWords(x, y) : lcs(x, y);
  return Math.round(((2 * shared) / (x.length + y.length)) * 1000) / 1000;
}

function lcs(x: readonly string[], y: readonly string[]): number {
  let previous = new Array<number>(y.length + 1).fill(0);
  for (const word of x) {
    const row = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j++) {
      row[j] =
        word === y[j - 1]
          ? (previous[j - 1] as number) + 1
          : Math.max(previous[j] as number, row[j - 1] as number);
    }
    previous = row;
  }
  return previous[y.length] as number;
}

function sharedWords(x: readonly string[], y: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const word of x) counts.set(word, (counts.get(word) ?? 0) + 1);
  let shared = 0;
  for (const word of y) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(word, left - 1);
    }
  }
  return shared;
}
