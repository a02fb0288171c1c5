import type { Cassette } from './cassette-format.js';

/** A recorded session not replayed whole: never claimed (`played: 0`), or left before its last turn. */
export interface UnusedRecording {
  /** Its place in the cassette, from 1. */
  session: number;
  /** The test it was recorded in (`per: 'test'`). */
  test?: string;
  /** Its recorded turns. */
  turns: number;
  /** How many of them were replayed. */
  played: number;
}

/**
 * Which recordings a replay used, for the check after a file's tests (nock's `pendingMocks`). One
 * number per recorded session, so it costs the same whatever the cassette's size.
 */
export class ReplayUsage {
  readonly #cassette: Cassette;
  readonly #per: 'file' | 'test';
  readonly #played: Int32Array;
  readonly #tests = new Set<string>();
  #mismatches = 0;

  constructor(cassette: Cassette, per: 'file' | 'test') {
    this.#cassette = cassette;
    this.#per = per;
    this.#played = new Int32Array(cassette.sessions.length);
  }

  /** `per: 'test'`: a test ran, so its recordings are expected to be used. */
  beginTest(name: string): void {
    this.#tests.add(name);
  }

  /** A model call failed with `replay_mismatch`. */
  mismatched(): void {
    this.#mismatches++;
  }

  /** How many model calls failed with `replay_mismatch`. */
  get mismatches(): number {
    return this.#mismatches;
  }

  /** A live session replayed `turns` turns of recorded session `index`. */
  played(index: number, turns: number): void {
    if (turns > (this.#played[index] ?? 0)) this.#played[index] = turns;
  }

  /**
   * Recorded sessions not replayed to their last turn. With `per: 'test'`, only those of the tests
   * that ran (a filtered or skipped test leaves its recordings alone).
   */
  unused(): UnusedRecording[] {
    const unused: UnusedRecording[] = [];
    this.#cassette.sessions.forEach((recorded, i) => {
      if (this.#per === 'test' && (recorded.test === undefined || !this.#tests.has(recorded.test))) return;
      const played = this.#played[i] ?? 0;
      // A session recorded with no model call is claimed by none: nothing to replay in it.
      if (recorded.turns.length === 0 || played >= recorded.turns.length) return;
      unused.push({
        session: i + 1,
        ...(recorded.test === undefined ? {} : { test: recorded.test }),
        turns: recorded.turns.length,
        played,
      });
    });
    return unused;
  }
}

/** One line per unused recording: `session 2 of 3 (test "weather > Oslo"): 1 of 4 turns replayed`. */
export function describeUnused(unused: readonly UnusedRecording[], sessions: number): string[] {
  return unused.map(
    (u) =>
      `session ${u.session} of ${sessions}${u.test === undefined ? '' : ` (test ${JSON.stringify(u.test)})`}: ` +
      (u.played === 0 ? 'never replayed' : `${u.played} of ${u.turns} turns replayed`),
  );
}
