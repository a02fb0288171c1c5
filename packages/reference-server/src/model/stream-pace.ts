import { seededRandom } from '../utils/seeded-random.js';
import type { ModelEvent, ModelRequest } from './model.js';
import { countWords } from './model-events.js';
import type { StreamPace } from './stream-pace-options.js';

export type { StreamPace } from './stream-pace-options.js';

const PACE_KEYS: ReadonlySet<string> = new Set(['ttftMs', 'wordsPerSecond', 'jitter', 'seed']);

/**
 * Checks a pace given in code: a `TypeError` naming `where` and the field for an unknown key, a
 * negative or non-numeric figure, a jitter above 1 or a seed that is not an integer.
 */
export function checkStreamPace(pace: StreamPace, where: string): StreamPace {
  if (typeof pace !== 'object' || pace === null) throw new TypeError(`${where}: must be an object`);
  for (const key of Object.keys(pace)) {
    if (!PACE_KEYS.has(key)) {
      throw new TypeError(`${where}.${key}: unknown option (expected ${[...PACE_KEYS].join(', ')})`);
    }
  }
  const figure = (key: keyof StreamPace, max = Number.POSITIVE_INFINITY) => {
    const value = pace[key];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
      const range = max === Number.POSITIVE_INFINITY ? 'a number >= 0' : `a number from 0 to ${max}`;
      throw new TypeError(`${where}.${key}: must be ${range}, got ${JSON.stringify(value) ?? String(value)}`);
    }
  };
  figure('ttftMs');
  figure('wordsPerSecond');
  figure('jitter', 1);
  if (pace.seed !== undefined && !Number.isSafeInteger(pace.seed)) {
    throw new TypeError(`${where}.seed: must be an integer, got ${JSON.stringify(pace.seed)}`);
  }
  return pace;
}

/** How many words' time an event takes: the words of a text delta, one per tool input fragment. */
function wordsOf(event: ModelEvent): number {
  if (!('contentBlockDelta' in event)) return 0;
  const delta = event.contentBlockDelta.delta;
  return 'text' in delta ? Math.max(1, countWords(delta.text)) : 1;
}

/**
 * The model's events at `pace`: the first `ttftMs` after the call, each later one as long after
 * the one before as its words take at `wordsPerSecond` (scaled by the seeded jitter). Times are
 * kept as a schedule from the call's start, so a slow consumer does not stretch the whole reply.
 * The jitter's draws depend on the seed and the session's turn only. No pace: the events as they come.
 */
export async function* pacedEvents(
  events: AsyncIterable<ModelEvent>,
  pace: StreamPace | undefined,
  request: ModelRequest,
): AsyncGenerator<ModelEvent> {
  const ttft = pace?.ttftMs ?? 0;
  const wordsPerSecond = pace?.wordsPerSecond ?? 0;
  if (pace === undefined || (ttft === 0 && wordsPerSecond === 0)) {
    yield* events;
    return;
  }
  const { clock } = request;
  const jitter = pace.jitter ?? 0;
  const random = seededRandom(pace.seed ?? 0, `pace#${request.turn}`);
  const scaled = (ms: number) => (jitter === 0 ? ms : ms * (1 - jitter + 2 * jitter * random()));
  const msPerWord = wordsPerSecond === 0 ? 0 : 1000 / wordsPerSecond;
  let due = clock.now() + scaled(ttft);
  let first = true;
  for await (const event of events) {
    if (!first) {
      const words = wordsOf(event);
      if (words > 0 && msPerWord > 0) due += scaled(words * msPerWord);
    }
    first = false;
    const wait = Math.round(due) - clock.now();
    if (wait > 0) await clock.sleep(wait, request.signal);
    yield event;
  }
}
