import { seededRandom } from '../utils/seeded-random.js';
import type { ModelEvent, ModelRequest } from './model.js';
import { countWords } from './model-events.js';
import type { StreamPace } from './stream-pace-options.js';

export type { StreamPace } from './stream-pace-options.js';

/** How many words' time an event takes: the words of a text delta, one per tool input fragment. */
function wordsOf(event: ModelEvent): number {
  if (!('contentBlockDelta' in event)) return 0;
  const delta = event.contentBlockDelta.delta;
  // Words as the stand-in counts them.
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
