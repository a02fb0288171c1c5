import type { ModelEvent, ModelRequest } from './model.js';
import type { StreamPace } from './stream-pace-options.js';

/**
 * The events at `pace` (see `pacedEvents`). The pacing code loads with the first paced reply: a
 * page that never sets a pace does not carry it.
 */
export async function* pacedLazily(
  events: AsyncIterable<ModelEvent>,
  pace: StreamPace,
  request: ModelRequest,
): AsyncGenerator<ModelEvent> {
  const { pacedEvents } = await import('./stream-pace.js');
  yield* pacedEvents(events, pace, request);
}
