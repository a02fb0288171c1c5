import { readCassetteFile } from '../cassette/cassette-file.js';
import type { Cassette, CassetteSession } from '../cassette/cassette-format.js';
import { parseCassette } from '../cassette/cassette-format.js';
import { createReferenceServer, DEMO_USER } from '../create-reference-server.js';
import type { UpstreamOptions } from '../proxy/upstream-options.js';
import { checkOptions, wrongValue } from '../utils/check-options.js';
import { maskUrlPasswords } from '../utils/url-password.js';
import { compareTurn, type LiveTurn } from './drift-compare.js';
import {
  DRIFT_KINDS,
  type DriftDifference,
  type DriftKind,
  type DriftReport,
  type SessionDrift,
  type TurnDrift,
} from './drift-types.js';
import { DriftUpstreamError, LiveSession, LiveSessionError } from './live-session.js';

/** Options of {@link driftReport}. */
export interface DriftOptions {
  /** The recording: a cassette file path or a parsed cassette. */
  cassette: string | Cassette;
  /**
   * The live deployment, reached through the checking proxy: `url`, and `token` (sent upstream;
   * default the demo token), `timeoutMs`, `fetch`, `log` as for the server's `upstream` option.
   */
  upstream: Pick<UpstreamOptions, 'url' | 'token' | 'timeoutMs' | 'fetch' | 'log'>;
  /** Kinds of difference not to report, e.g. `['usage', 'text']`. */
  ignore?: readonly DriftKind[];
  /**
   * Texts at least this alike (0 to 1, see `similarity`) do not count as drift. Default 1: any
   * difference in the text counts, whitespace included (the similarity counts words only).
   */
  textSimilarity?: number;
}

/**
 * Plays each recorded conversation's user turns and tool results against the live deployment,
 * through the checking proxy, and reports per turn what the deployment answers differently: stop
 * reason, tool calls (names and input keys), event kinds and their order, message count, the whole
 * text (with a similarity figure and an excerpt from just before the first difference), and usage
 * beside it. What breaks the protocol is counted as a
 * violation, not as drift. Rejects with a `DriftUpstreamError` when the deployment cannot be
 * reached (or refuses the token): no report is made of a partial run.
 *
 * @example
 * const report = await driftReport({ cassette: 'cassettes/weather.json', upstream: { url: process.env.STAGING_URL! } });
 * if (report.drifts > 0) console.log(formatDriftReport(report));
 */
export async function driftReport(options: DriftOptions): Promise<DriftReport> {
  checkOptions(
    options,
    { cassette: true, upstream: true, ignore: 'array', textSimilarity: 'number' },
    'driftReport()',
  );
  if (options.cassette === undefined) {
    throw new TypeError('driftReport(): cassette is required: a cassette file or a loaded cassette');
  }
  if (typeof options.upstream !== 'object' || options.upstream === null) {
    const example = typeof options.upstream === 'string' ? JSON.stringify(options.upstream) : "'https://...'";
    throw wrongValue('driftReport()', 'upstream', `an object such as { url: ${example} }`, options.upstream);
  }
  checkOptions(
    options.upstream,
    { url: 'string', token: 'string', timeoutMs: 'number', fetch: 'function', log: true },
    'driftReport({ upstream })',
  );
  const ignore = new Set(options.ignore ?? []);
  for (const kind of ignore) {
    if (!DRIFT_KINDS.includes(kind)) {
      throw new TypeError(
        `driftReport: ignore: ${JSON.stringify(kind)} is not a kind of drift (${DRIFT_KINDS.join(', ')})`,
      );
    }
  }
  const textSimilarity = options.textSimilarity ?? 1;
  if (typeof textSimilarity !== 'number' || !(textSimilarity >= 0 && textSimilarity <= 1)) {
    throw new TypeError(
      `driftReport: textSimilarity must be a number from 0 to 1, got ${String(textSimilarity)}`,
    );
  }
  const name = typeof options.cassette === 'string' ? options.cassette : 'the cassette';
  const cassette =
    typeof options.cassette === 'string'
      ? readCassetteFile(options.cassette)
      : parseCassette(options.cassette);
  const { token, ...upstream } = options.upstream;
  const proxy = createReferenceServer({
    upstream: {
      ...upstream,
      token: token ?? DEMO_USER.token,
      log: options.upstream.log ?? (() => undefined),
    },
  });
  try {
    const results: SessionDrift[] = [];
    for (const [i, session] of cassette.sessions.entries()) {
      results.push(await playSession(proxy.fetch, i, session, { ignore, textSimilarity }));
    }
    const report = proxy.proxy?.report();
    if (report === undefined) throw new Error('driftReport: the checking proxy is missing');
    const turns = results.flatMap((r) => r.turns);
    const byKind = Object.fromEntries(DRIFT_KINDS.map((kind) => [kind, 0])) as Record<DriftKind, number>;
    for (const turn of turns) for (const difference of turn.differences) byKind[difference.kind]++;
    return {
      cassette: name,
      upstream: maskUrlPasswords(options.upstream.url),
      ignored: [...ignore],
      textSimilarity,
      sessions: results.length,
      turnsCompared: turns.length,
      turnsWithDrift: turns.filter((t) => t.differences.length > 0).length,
      drifts: turns.reduce((sum, t) => sum + t.differences.length, 0),
      byKind,
      sessionsStopped: results.filter((r) => r.stopped !== undefined).length,
      violations: report.violations,
      proxy: report,
      results,
    };
  } finally {
    await proxy.close();
  }
}

async function playSession(
  fetch: (request: Request) => Promise<Response>,
  index: number,
  session: CassetteSession,
  settings: { ignore: ReadonlySet<DriftKind>; textSimilarity: number },
): Promise<SessionDrift> {
  const result: SessionDrift = {
    session: index + 1,
    ...(session.test === undefined ? {} : { test: session.test }),
    turns: [],
  };
  let live: LiveSession | undefined;
  try {
    live = await LiveSession.create(fetch, DEMO_USER.token, session.customizations);
    result.liveSessionId = live.id;
    let queue: LiveTurn[] = [];
    let pending: string[] = [];
    // The message count: the session's assistant messages so far, recorded and live.
    let liveMessages = 0;
    const messages = (recorded: number): DriftDifference => ({
      kind: 'messages',
      recorded: `${recorded} assistant messages`,
      live: `${liveMessages} assistant messages`,
    });
    // The live reply had more assistant messages than the recording: told on the last turn compared.
    const extraMessages = () => {
      const last = result.turns.at(-1);
      if (queue.length === 0 || last === undefined || settings.ignore.has('messages')) return;
      last.differences.push(messages(last.turn));
    };
    for (const [t, turn] of session.turns.entries()) {
      if ('user' in turn.input || (queue.length === 0 && pending.length > 0)) {
        extraMessages();
        if (!('user' in turn.input)) await live.respond(pending, turn);
        const answer = await live.send(
          'user' in turn.input ? turn.input : undefined,
          turn.events !== undefined,
        );
        queue = answer.turns;
        pending = answer.pending;
        liveMessages += queue.length;
      }
      const input =
        'user' in turn.input
          ? JSON.stringify(cut(turn.input.user.map((b) => b.text).join('')))
          : 'tool results';
      const next = queue.shift();
      if (next === undefined) {
        const drift: TurnDrift = { turn: t + 1, input, differences: [], usage: usageOf(turn.usage) };
        if (!settings.ignore.has('messages')) drift.differences.push(messages(t + 1));
        result.turns.push(drift);
        result.stopped = `turn ${t + 1}: the deployment's reply has no assistant message for it (fewer messages than recorded)`;
        return result;
      }
      const { differences, similarity } = compareTurn(turn, next, settings);
      result.turns.push({
        turn: t + 1,
        input,
        differences,
        similarity,
        usage: { ...usageOf(turn.usage), ...(next.usage === undefined ? {} : { live: next.usage }) },
      });
    }
    extraMessages();
    return result;
  } catch (error) {
    if (!(error instanceof LiveSessionError)) throw error;
    result.stopped = error.message;
    return result;
  } finally {
    await live?.delete();
  }
}

function usageOf(usage: TurnDrift['usage']['recorded']): TurnDrift['usage'] {
  return usage === undefined ? {} : { recorded: usage };
}

function cut(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

export { DriftUpstreamError };
