import type { Customizations } from '@parley/protocol';
import { type Model, ModelError, type ModelEvent, type ModelRequest } from '../model/model.js';
import { standInModel } from '../model/stand-in-model.js';
import type { Cassette, CassetteSession, CassetteTurn } from './cassette-format.js';
import { type MismatchKind, mismatchFix, type RecordedFrom } from './mismatch-fix.js';
import { type Claim, plural, RecordedSessions, type ReplaySessionMatch } from './recorded-sessions.js';
import { inputMismatch, liveInput } from './replay-mismatch.js';
import { ReplayUsage } from './replay-usage.js';
import { failing, playTurn } from './turn-events.js';

export type { ReplaySessionMatch } from './recorded-sessions.js';

/** The error code of a model call the cassette does not hold (501, never retried). */
export const REPLAY_MISMATCH = 'replay_mismatch';

/** Options of a replay (`replay` of `createReferenceServer`, `--replay` of the CLI). */
export interface ReplayOptions {
  /**
   * A model call whose input differs from the recording (or that the cassette has no turn for):
   * `'error'` (default) fails the reply with `501 replay_mismatch`, naming the cassette, session,
   * turn, and what was expected and what came; `'stand-in'` lets the stand-in model answer it;
   * `'upstream'` asks the deployment of `upstream` (through the checking proxy), without writing
   * the answer down. From then on that session's calls go upstream.
   */
  onMismatch?: 'error' | 'stand-in' | 'upstream';
  /**
   * `'fast'` (default): the recorded events with no wait. `'recorded'`: a streamed turn's events
   * wait on the server's clock as long as they did when recorded (a `ManualClock` moves them).
   */
  pace?: 'recorded' | 'fast';
  /**
   * With `pace: 'recorded'` (which it implies when `pace` is not given): play the recorded cadence
   * this many times faster, e.g. `10` (a gap of 1 s recorded comes after 100 ms). A number > 0;
   * default 1. Turns recorded without timings (buffered, or old cassettes) still play at once.
   */
  speed?: number;
  /**
   * How a live session finds its recorded one. `'order'` (default): the n-th session created plays
   * the n-th recorded session. `'agentId'`, `'sessionData'` or a function of the customizations: the
   * first unused recorded session with the same key. Turns always play in recorded order.
   */
  match?: { sessions?: ReplaySessionMatch };
}

/** A turn the upstream answered for what the cassette lacked, to be added to it (record-missing). */
export interface RecordedAddition {
  sessionId: string;
  /** The recorded session it continues, or undefined for a session the cassette did not hold. */
  recorded: number | undefined;
  /** The live session's creation order, to keep new sessions in that order. */
  order: number | undefined;
  test: string | undefined;
  customizations: Customizations;
  turn: CassetteTurn;
}

/** What the composition root tells the replay model besides the options. */
export interface ReplaySource extends ReplayOptions {
  cassette: Cassette;
  /** Names the cassette in errors (its path). */
  name: string;
  /** `'test'`: sessions are found by the test that created them and their rank in it (`testOf`). */
  per?: 'file' | 'test';
  /** The creation order of a live session (from 0); without it, the order of first model calls. */
  sessionOrder?: (sessionId: string) => number | undefined;
  /** `per: 'test'`: the test that created a live session, and its rank among that test's sessions. */
  testOf?: (sessionId: string) => { name: string; rank: number } | undefined;
  /** The model of `onMismatch: 'stand-in'`. Default the stand-in model. */
  standIn?: Model;
  /** Answers a call from the deployment (`onMismatch: 'upstream'`, record-missing). */
  upstream?: (request: ModelRequest) => Promise<CassetteTurn>;
  /** Record-missing: a session or turn the cassette lacks goes upstream and is told here. */
  onRecorded?: (addition: RecordedAddition) => void;
  /** Where the replay notes what it played. */
  usage?: ReplayUsage;
  /**
   * How this cassette is recorded again, for the fix ending a mismatch's message (see
   * `mismatchFix`): the runner's command for this test (when the vitest helper gave it) and where
   * the cassette came from. Without it, a mismatch names no fix.
   */
  rerecording?: () => {
    rerecord: { command: string; oneTest: boolean } | undefined;
    from: RecordedFrom;
  };
}

interface LiveSession {
  readonly id: string;
  readonly claim: Claim;
  readonly order: number | undefined;
  readonly test: string | undefined;
  /** The next recorded turn to play. */
  cursor: number;
  /** Tool use ids this session was given, so a replayed turn never reuses one (after a rewind). */
  readonly toolUseIds: Set<string>;
  /** Set once a call went upstream: the session's later calls go there too. */
  upstream?: { record: boolean };
}

/**
 * A model whose answers are the recorded assistant turns of a cassette. Sessions find their
 * recorded session (by order of creation, by test, or by key), then each model call plays the
 * session's next turn when its input (the user's text or the tool results) is the recorded one. A
 * call that was aborted or cut does not use up its turn: the next call plays it again.
 */
export function createReplayModel(source: ReplaySource): Model {
  const { cassette, name, onMismatch = 'error' } = source;
  // cassette-setup.ts checked them (replayTiming) and resolved the pace `speed` implies.
  const { pace = 'fast', speed = 1 } = source;
  const standIn = source.standIn ?? standInModel;
  const per = source.per ?? 'file';
  const recordedSessions = new RecordedSessions(cassette, source.match?.sessions ?? 'order', per);
  const usage = source.usage ?? new ReplayUsage(cassette, per);
  const live = new Map<string, LiveSession>();

  const sessionOf = (request: ModelRequest): LiveSession => {
    let session = live.get(request.sessionId);
    if (session === undefined) {
      const order = source.sessionOrder?.(request.sessionId);
      const test = per === 'test' ? source.testOf?.(request.sessionId) : undefined;
      const claim = recordedSessions.claim({ order, customizations: request.customizations, test });
      session = { id: request.sessionId, claim, order, test: test?.name, cursor: 0, toolUseIds: new Set() };
      live.set(request.sessionId, session);
    }
    return session;
  };

  const viaUpstream = (request: ModelRequest, session: LiveSession, record: boolean) => {
    const upstream = source.upstream;
    if (upstream === undefined) throw new Error('The replay has no upstream to ask');
    session.upstream ??= { record };
    const recorded = 'index' in session.claim ? session.claim.index : undefined;
    return (async function* (): AsyncGenerator<ModelEvent> {
      const turn = await upstream(request);
      yield* playTurn(turn, request, session, { pace: 'fast' }, () => {
        if (session.upstream?.record !== true) return;
        source.onRecorded?.({
          sessionId: session.id,
          recorded,
          order: session.order,
          test: session.test,
          customizations: request.customizations,
          turn,
        });
      });
    })();
  };

  return (request) => {
    const session = sessionOf(request);
    if (session.upstream !== undefined) return viaUpstream(request, session, session.upstream.record);
    const claim = session.claim;
    const recordedSession =
      'index' in claim ? `session ${claim.index + 1} of ${cassette.sessions.length}` : 'no recorded session';
    const where = `cassette ${name}, ${recordedSession} (live ${request.sessionId}), turn ${session.cursor + 1}`;
    const mismatch = (what: string, kind: MismatchKind): AsyncIterable<ModelEvent> => {
      if (onMismatch === 'stand-in') return standIn(request);
      if (onMismatch === 'upstream') return viaUpstream(request, session, false);
      usage.mismatched();
      const how = source.rerecording?.();
      const fix = how === undefined ? '' : mismatchFix(kind, how.rerecord, how.from);
      return failing(new ModelError(`Replay mismatch in ${where}: ${what}${fix}`, { code: REPLAY_MISMATCH }));
    };
    // What the cassette lacks (a session, or a turn past the recorded ones) is recorded when asked to.
    const missing = (what: string) =>
      source.onRecorded === undefined ? mismatch(what, 'lacks') : viaUpstream(request, session, true);

    if ('missing' in claim) return missing(claim.missing);
    const recorded = cassette.sessions[claim.index] as CassetteSession;
    const turn = recorded.turns[session.cursor];
    if (turn === undefined) {
      return missing(`the recorded session has ${plural(recorded.turns.length, 'turn')} and all were played`);
    }
    const difference = inputMismatch(turn.input, liveInput(request.messages));
    if (difference !== undefined) return mismatch(difference, 'differs');
    return playTurn(turn, request, session, { pace, speed }, () => {
      session.cursor++;
      usage.played(claim.index, session.cursor);
    });
  };
}
