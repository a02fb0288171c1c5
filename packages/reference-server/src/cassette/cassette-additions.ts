import type { Customizations } from '@parley/protocol';
import {
  CASSETTE_VERSION,
  type Cassette,
  type CassetteSession,
  type CassetteTurn,
} from './cassette-format.js';
import type { CassetteProvenance } from './cassette-provenance.js';
import { type CassetteRedaction, redactCassette } from './cassette-redaction.js';
import type { RecordedAddition } from './replay-model.js';

interface NewSession {
  order: number | undefined;
  test: string | undefined;
  customizations: Customizations;
  turns: CassetteTurn[];
}

/**
 * What record-missing added to a cassette: turns past the end of recorded sessions, and sessions
 * it did not hold. {@link merge} puts them in: every recorded session keeps its place and its
 * turns (so the file's text for them is the same, byte for byte), appended turns go after the
 * recorded ones, and new sessions go at the end in their order of creation.
 */
export class CassetteAdditions {
  readonly #appended = new Map<number, CassetteTurn[]>();
  readonly #created = new Map<string, NewSession>();

  add(addition: RecordedAddition): void {
    if (addition.recorded !== undefined) {
      const turns = this.#appended.get(addition.recorded);
      if (turns === undefined) this.#appended.set(addition.recorded, [addition.turn]);
      else turns.push(addition.turn);
      return;
    }
    let session = this.#created.get(addition.sessionId);
    if (session === undefined) {
      session = {
        order: addition.order,
        test: addition.test,
        customizations: addition.customizations,
        turns: [],
      };
      this.#created.set(addition.sessionId, session);
    }
    session.turns.push(addition.turn);
  }

  /**
   * Drops what the tests `failed` tells recorded: the turns it appended to a recorded session of
   * such a test, and the sessions such a test created.
   */
  drop(failed: (test: string) => boolean, recordedTest?: (recorded: number) => string | undefined): void {
    for (const [id, session] of this.#created) {
      if (session.test !== undefined && failed(session.test)) this.#created.delete(id);
    }
    if (recordedTest === undefined) return;
    for (const index of this.#appended.keys()) {
      const test = recordedTest(index);
      if (test !== undefined && failed(test)) this.#appended.delete(index);
    }
  }

  /**
   * Hands what was added over once: the result holds it, this holds nothing afterwards (so a second
   * `close()`, or two at once, do not write the same additions twice).
   */
  take(): CassetteAdditions {
    const taken = new CassetteAdditions();
    for (const [index, turns] of this.#appended) taken.#appended.set(index, turns);
    for (const [id, session] of this.#created) taken.#created.set(id, session);
    this.#appended.clear();
    this.#created.clear();
    return taken;
  }

  /** `2 sessions and 1 turn`: what was added, for the line a recording run prints. */
  describe(): string {
    const turns = [...this.#appended.values()].reduce((n, list) => n + list.length, 0);
    const sessions = this.#created.size;
    const parts = [];
    if (sessions > 0) parts.push(`${sessions} session${sessions === 1 ? '' : 's'}`);
    if (turns > 0) parts.push(`${turns} turn${turns === 1 ? '' : 's'}`);
    return parts.join(' and ');
  }

  get isEmpty(): boolean {
    return this.#appended.size === 0 && this.#created.size === 0;
  }

  /**
   * The cassette with the additions, which alone are redacted. Added sessions carry their own
   * `recordedAt`; a cassette that held no session yet takes the provenance at its top instead.
   */
  merge(cassette: Cassette, provenance: CassetteProvenance, redact?: CassetteRedaction): Cassette {
    const fresh = cassette.sessions.length === 0;
    const redacted = (sessions: CassetteSession[]) =>
      redactCassette({ ...cassette, sessions }, redact).sessions;
    const sessions = cassette.sessions.map((session, i) => {
      const turns = this.#appended.get(i);
      if (turns === undefined) return session;
      const [added] = redacted([{ customizations: null, turns }]);
      return { ...session, turns: [...session.turns, ...(added?.turns ?? [])] };
    });
    const created = [...this.#created.values()]
      .map((session, i) => ({ session, i }))
      .sort((a, b) => (a.session.order ?? Infinity) - (b.session.order ?? Infinity) || a.i - b.i)
      .map(
        ({ session }): CassetteSession => ({
          ...(session.test === undefined ? {} : { test: session.test }),
          ...(fresh || provenance.recordedAt === undefined ? {} : { recordedAt: provenance.recordedAt }),
          customizations:
            Object.keys(session.customizations).length === 0
              ? null
              : (session.customizations as Record<string, unknown>),
          turns: session.turns,
        }),
      );
    return {
      ...(fresh ? { ...cassette, ...provenance } : cassette),
      // Its sessions may now hold version 2's fields.
      version: CASSETTE_VERSION,
      sessions: [...sessions, ...redacted(created)],
    };
  }
}
