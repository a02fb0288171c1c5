import type { Customizations, StopReason } from '@parley/protocol';
import { stringify as stableStringify } from 'safe-stable-stringify';
import { abortStateOf, type Model, ModelError, type ModelEvent, type ModelRequest } from '../model/model.js';
import { jsonFragments, newToolUseId, textChunks } from '../model/model-events.js';
import { standInModel } from '../model/stand-in-model.js';
import type { Cassette, CassetteSession, CassetteTurn } from './cassette-format.js';
import { inputMismatch, liveInput } from './replay-mismatch.js';

/** The error code of a model call the cassette does not hold (501, never retried). */
export const REPLAY_MISMATCH = 'replay_mismatch';

/** How live sessions find their recorded session. */
export type ReplaySessionMatch =
  | 'order'
  | 'agentId'
  | 'sessionData'
  | ((customizations: Customizations) => unknown);

/** Options of a replay (`replay` of `createReferenceServer`, `--replay` of the CLI). */
export interface ReplayOptions {
  /**
   * A model call whose input differs from the recording (or that the cassette has no turn for):
   * `'error'` (default) fails the reply with `501 replay_mismatch`, naming the cassette, session,
   * turn, and what was expected and what came; `'stand-in'` lets the stand-in model answer it.
   */
  onMismatch?: 'error' | 'stand-in';
  /**
   * `'fast'` (default): the recorded events with no wait. `'recorded'`: a streamed turn's events
   * wait on the server's clock as long as they did when recorded (a `ManualClock` moves them).
   */
  pace?: 'recorded' | 'fast';
  /**
   * How a live session finds its recorded one. `'order'` (default): the n-th session created plays
   * the n-th recorded session. `'agentId'`, `'sessionData'` or a function of the customizations: the
   * first unused recorded session with the same key. Turns always play in recorded order.
   */
  match?: { sessions?: ReplaySessionMatch };
}

/** What the composition root tells the replay model besides the options. */
export interface ReplaySource extends ReplayOptions {
  cassette: Cassette;
  /** Names the cassette in errors (its path). */
  name: string;
  /** The creation order of a live session (from 0); without it, the order of first model calls. */
  sessionOrder?: (sessionId: string) => number | undefined;
  /** The model of `onMismatch: 'stand-in'`. Default the stand-in model. */
  standIn?: Model;
}

interface LiveSession {
  /** Index of the recorded session, or undefined when none matched. */
  recorded: number | undefined;
  /** The next recorded turn to play. */
  cursor: number;
  /** Tool use ids this session was given, so a replayed turn never reuses one (after a rewind). */
  toolUseIds: Set<string>;
}

/**
 * A model whose answers are the recorded assistant turns of a cassette. Sessions find their
 * recorded session (by order of creation or by key), then each model call plays the session's next
 * turn when its input (the user's text or the tool results) is the recorded one. A call that was
 * aborted or cut does not use up its turn: the next call plays it again.
 */
export function createReplayModel(source: ReplaySource): Model {
  const { cassette, name, onMismatch = 'error', pace = 'fast' } = source;
  const standIn = source.standIn ?? standInModel;
  const by = source.match?.sessions ?? 'order';
  const live = new Map<string, LiveSession>();
  const claimed = new Set<number>();
  let firstCalls = 0;

  const sessionOf = (request: ModelRequest): LiveSession => {
    let session = live.get(request.sessionId);
    if (session === undefined) {
      session = { recorded: findRecorded(request), cursor: 0, toolUseIds: new Set() };
      if (session.recorded !== undefined) claimed.add(session.recorded);
      live.set(request.sessionId, session);
    }
    return session;
  };

  const findRecorded = (request: ModelRequest): number | undefined => {
    if (by === 'order') {
      const order = source.sessionOrder?.(request.sessionId) ?? firstCalls;
      firstCalls++;
      return order < cassette.sessions.length && !claimed.has(order) ? order : undefined;
    }
    const key = keyOf(by, request.customizations);
    const index = cassette.sessions.findIndex(
      (recorded, i) =>
        !claimed.has(i) && keyOf(by, (recorded.customizations ?? {}) as Customizations) === key,
    );
    return index >= 0 ? index : undefined;
  };

  return (request) => {
    const session = sessionOf(request);
    const recordedIndex = session.recorded;
    const recordedSession =
      recordedIndex === undefined
        ? 'no recorded session'
        : `session ${recordedIndex + 1} of ${cassette.sessions.length}`;
    const where = `cassette ${name}, ${recordedSession} (live ${request.sessionId}), turn ${session.cursor + 1}`;
    const mismatch = (what: string): AsyncIterable<ModelEvent> => {
      if (onMismatch === 'stand-in') return standIn(request);
      return failing(new ModelError(`Replay mismatch in ${where}: ${what}`, { code: REPLAY_MISMATCH }));
    };

    if (recordedIndex === undefined) {
      return mismatch(
        by === 'order'
          ? `the cassette holds ${cassette.sessions.length} session${cassette.sessions.length === 1 ? '' : 's'} and none is left for this one`
          : `no unused recorded session has the ${typeof by === 'string' ? by : 'key'} ${keyOf(by, request.customizations)}`,
      );
    }
    const recorded = cassette.sessions[recordedIndex] as CassetteSession;
    const turn = recorded.turns[session.cursor];
    if (turn === undefined) {
      return mismatch(
        `the recorded session has ${recorded.turns.length} turn${recorded.turns.length === 1 ? '' : 's'} and all were played`,
      );
    }
    const difference = inputMismatch(turn.input, liveInput(request.messages));
    if (difference !== undefined) return mismatch(difference);
    return play(turn, request, session, pace);
  };
}

function keyOf(by: Exclude<ReplaySessionMatch, 'order'>, customizations: Customizations): string {
  const value =
    typeof by === 'function' ? by(customizations) : (customizations as Record<string, unknown>)[by];
  return stableStringify(value) ?? 'undefined';
}

/** Plays one recorded turn as model events; the turn is used up once its last event is taken. */
async function* play(
  turn: CassetteTurn,
  request: ModelRequest,
  session: LiveSession,
  pace: 'recorded' | 'fast',
): AsyncGenerator<ModelEvent> {
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
  let lastAt = 0;
  for (const { atMs, event } of events) {
    if (pace === 'recorded' && atMs > lastAt) await request.clock.sleep(atMs - lastAt, request.signal);
    lastAt = Math.max(lastAt, atMs);
    if (state.aborted) throw state.reason;
    yield event;
  }
  for (const id of ids.values()) session.toolUseIds.add(id);
  session.cursor++;
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
function failing(error: Error): AsyncIterable<ModelEvent> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
}
