import type { Customizations } from '@parley/protocol';
import { stringify as stableStringify } from 'safe-stable-stringify';
import type { Cassette } from './cassette-format.js';

/** How live sessions find their recorded session. */
export type ReplaySessionMatch =
  | 'order'
  | 'agentId'
  | 'sessionData'
  | ((customizations: Customizations) => unknown);

/** What is known of a live session when its first model call comes. */
export interface LiveSessionPlace {
  /** Its creation order (from 0), or undefined when the server does not say. */
  order: number | undefined;
  customizations: Customizations;
  /** `per: 'test'`: the test that created it and its rank among that test's sessions (from 0). */
  test?: { name: string; rank: number } | undefined;
}

/** The recorded session a live one plays, or why there is none. */
export type Claim = { index: number } | { missing: string };

/**
 * Finds the recorded session of each live session, each recorded session once: by creation order
 * (`'order'`), by the vitest test and rank (`per: 'test'`), or by a key of the customizations. The
 * keys are indexed once, so claiming costs the same for the first session as for the ten-thousandth
 * (a match function is called once per recorded session and once per live session).
 */
export class RecordedSessions {
  readonly #cassette: Cassette;
  readonly #by: ReplaySessionMatch;
  readonly #per: 'file' | 'test';
  readonly #claimed = new Set<number>();
  #index: Map<string, number[]> | undefined;
  readonly #next = new Map<string, number>();
  #calls = 0;

  constructor(cassette: Cassette, by: ReplaySessionMatch, per: 'file' | 'test') {
    this.#cassette = cassette;
    this.#by = by;
    this.#per = per;
  }

  claim(place: LiveSessionPlace): Claim {
    const found = this.#find(place);
    if ('index' in found) this.#claimed.add(found.index);
    return found;
  }

  #find(place: LiveSessionPlace): Claim {
    const count = this.#cassette.sessions.length;
    if (this.#per === 'test') return this.#byTest(place.test);
    const by = this.#by;
    if (by === 'order') {
      const order = place.order ?? this.#calls;
      this.#calls++;
      if (order < count && !this.#claimed.has(order)) return { index: order };
      return { missing: `the cassette holds ${plural(count, 'session')} and none is left for this one` };
    }
    const key = keyOf(by, place.customizations);
    const index = this.#indexed((recorded) => keyOf(by, (recorded.customizations ?? {}) as Customizations));
    const candidates = index.get(key) ?? [];
    const next = this.#next.get(key) ?? 0;
    const found = candidates[next];
    if (found !== undefined) {
      this.#next.set(key, next + 1);
      return { index: found };
    }
    return { missing: `no unused recorded session has the ${typeof by === 'string' ? by : 'key'} ${key}` };
  }

  #byTest(test: LiveSessionPlace['test']): Claim {
    if (test === undefined) {
      return { missing: "no vitest test was running when the session was created (per: 'test')" };
    }
    const index = this.#indexed((recorded) => recorded.test);
    const candidates = index.get(test.name) ?? [];
    const found = candidates[test.rank];
    if (found !== undefined && !this.#claimed.has(found)) return { index: found };
    const labelled = this.#cassette.sessions.some((s) => s.test !== undefined);
    const hint = labelled ? '' : " (it was recorded per file: record it again with per: 'test')";
    return {
      missing: `the cassette holds ${plural(candidates.length, 'session')} for the test ${JSON.stringify(test.name)} and this is its session ${test.rank + 1}${hint}`,
    };
  }

  /** Recorded session indexes by key, in order, built on first use. */
  #indexed(
    keyOfRecorded: (recorded: Cassette['sessions'][number]) => string | undefined,
  ): Map<string, number[]> {
    if (this.#index !== undefined) return this.#index;
    const index = new Map<string, number[]>();
    this.#cassette.sessions.forEach((recorded, i) => {
      const key = keyOfRecorded(recorded);
      if (key === undefined) return;
      const list = index.get(key);
      if (list === undefined) index.set(key, [i]);
      else list.push(i);
    });
    this.#index = index;
    return index;
  }
}

function keyOf(by: Exclude<ReplaySessionMatch, 'order'>, customizations: Customizations): string {
  const value =
    typeof by === 'function' ? by(customizations) : (customizations as Record<string, unknown>)[by];
  return stableStringify(value) ?? 'undefined';
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
