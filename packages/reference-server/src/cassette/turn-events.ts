import type { StopReason } from '@parley/protocol';
import { abortStateOf, ModelError, type ModelEvent, type ModelRequest } from '../model/model.js';
import { jsonFragments, newToolUseId, textChunks } from '../model/model-events.js';
import type { CassetteTurn } from './cassette-format.js';

/** What playing a turn needs of its live session. */
export interface PlayedSession {
  /** Tool use ids this session was given, so a replayed turn never reuses one (after a rewind). */
  readonly toolUseIds: Set<string>;
}

/**
 * Plays one recorded turn as model events; `onPlayed` is called once its last event is taken.
 * `pace: 'recorded'` keeps the recorded gaps on the request's clock, divided by `speed` (default 1).
 */
export async function* playTurn(
  turn: CassetteTurn,
  request: ModelRequest,
  session: PlayedSession,
  timing: { pace: 'recorded' | 'fast'; speed?: number },
  onPlayed: () => void,
): AsyncGenerator<ModelEvent> {
  const { pace } = timing;
  const speed = timing.speed ?? 1;
  const state = abortStateOf(request);
  const ids = new Map<string, string>();
  // The recorded id when this session has not had it yet (a rewind then a replay of the same turn).
  const idFor = (recordedId: string): string => {
    let id = ids.get(recordedId);
    if (id === undefined) {
      id = session.toolUseIds.has(recordedId) ? newToolUseId() : recordedId;
      ids.set(recordedId, id);
    }
    return id;
  };
  const events = turn.events === undefined ? synthesize(turn, idFor) : recorded(turn.events, idFor);
  const start = request.clock.now();
  for (const { atMs, event } of events) {
    // A schedule from the call's start: the gaps keep their sum whatever the rounding.
    const wait = pace === 'recorded' ? start + Math.round(atMs / speed) - request.clock.now() : 0;
    if (wait > 0) await request.clock.sleep(wait, request.signal);
    if (state.aborted) throw state.reason;
    yield event;
  }
  for (const id of ids.values()) session.toolUseIds.add(id);
  onPlayed();
  if (turn.error !== undefined) throw new ModelError(turn.error.message, { code: turn.error.code });
}

type TimedEvent = { atMs: number; event: ModelEvent };

/** The recorded wire events as model events (the server assigns indexes; unknown kinds are left out). */
function* recorded(
  events: NonNullable<CassetteTurn['events']>,
  idFor: (recordedId: string) => string,
): Generator<TimedEvent> {
  for (const { atMs, event } of events) {
    const modelEvent = toModelEvent(event, idFor);
    if (modelEvent !== undefined) yield { atMs, event: modelEvent };
  }
}

function toModelEvent(
  event: Record<string, unknown>,
  idFor: (recordedId: string) => string,
): ModelEvent | undefined {
  const [kind] = Object.keys(event);
  const payload = event[kind ?? ''] as Record<string, unknown> | undefined;
  if (kind === undefined || typeof payload !== 'object' || payload === null) return undefined;
  const position = payload.contentBlockIndex as number;
  switch (kind) {
    case 'messageStart':
      return { messageStart: { role: 'assistant' } };
    case 'contentBlockStart': {
      const toolUse = (payload.start as { toolUse?: { toolUseId: string; name: string } } | undefined)
        ?.toolUse;
      if (toolUse === undefined) return undefined;
      return {
        contentBlockStart: {
          contentBlockIndex: position,
          start: { toolUse: { toolUseId: idFor(toolUse.toolUseId), name: toolUse.name } },
        },
      };
    }
    case 'contentBlockDelta': {
      const delta = payload.delta as { text?: unknown; toolUse?: { input?: unknown } } | undefined;
      if (typeof delta?.text === 'string')
        return { contentBlockDelta: { contentBlockIndex: position, delta: { text: delta.text } } };
      if (typeof delta?.toolUse?.input === 'string') {
        return {
          contentBlockDelta: {
            contentBlockIndex: position,
            delta: { toolUse: { input: delta.toolUse.input } },
          },
        };
      }
      return undefined;
    }
    case 'contentBlockStop':
      return { contentBlockStop: { contentBlockIndex: position } };
    case 'messageStop':
      return { messageStop: { stopReason: (payload.stopReason as StopReason | undefined) ?? 'end_turn' } };
    case 'metadata':
      return { metadata: payload as Extract<ModelEvent, { metadata: unknown }>['metadata'] };
    default:
      return undefined;
  }
}

/** A buffered turn's events, made from its content as the stand-in model streams text and tools. */
function* synthesize(turn: CassetteTurn, idFor: (recordedId: string) => string): Generator<TimedEvent> {
  const at = (event: ModelEvent): TimedEvent => ({ atMs: 0, event });
  yield at({ messageStart: { role: 'assistant' } });
  let position = 0;
  for (const block of turn.content) {
    if (block.type === 'text') {
      for (const text of textChunks(block.text)) {
        yield at({ contentBlockDelta: { contentBlockIndex: position, delta: { text } } });
      }
    } else if (block.type === 'tool_use') {
      yield at({
        contentBlockStart: {
          contentBlockIndex: position,
          start: { toolUse: { toolUseId: idFor(block.id), name: block.name } },
        },
      });
      for (const input of jsonFragments(JSON.stringify(block.input))) {
        yield at({ contentBlockDelta: { contentBlockIndex: position, delta: { toolUse: { input } } } });
      }
    } else {
      continue;
    }
    yield at({ contentBlockStop: { contentBlockIndex: position } });
    position++;
  }
  if (turn.error !== undefined) return;
  yield at({ messageStop: { stopReason: turn.stopReason ?? 'end_turn' } });
  // No usage recorded for this call (an earlier call of a buffered reply): the reply's total is on its last.
  const usage = turn.usage;
  if (usage === undefined) return;
  yield at({
    metadata: {
      usage: {
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        totalTokens: usage.totalTokens,
      },
    },
  });
}

/** Events that fail on the first `next()`, like a generator that throws before its first event. */
export function failing(error: Error): AsyncIterable<ModelEvent> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
}
