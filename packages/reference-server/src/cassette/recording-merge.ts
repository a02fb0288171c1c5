import type { Cassette, CassetteSession } from './cassette-format.js';

/** Which tests a recording run ran, and which of them failed (their full names). */
export interface TestOutcomes {
  readonly ran: ReadonlySet<string>;
  readonly failed: ReadonlySet<string>;
  /** Tests skipped after they began: like failed ones, what they recorded is not written. */
  readonly skipped?: ReadonlySet<string>;
  /** Tests of the file this run did not run. */
  readonly notRun: ReadonlySet<string>;
  /** Tests begun on a shared server that never said how they ended: not written either. */
  readonly unfinished?: ReadonlySet<string>;
}

/** What a recording run does to its cassette file, and the counts it prints. */
export interface RecordingMerge {
  /** The cassette to write; undefined when the file stays as it is. */
  cassette: Cassette | undefined;
  /** Tests whose sessions this run recorded (they ran and passed). */
  recorded: number;
  /** Tests of the file this run left as they were (they did not run, or failed). */
  kept: number;
  /** Tests that failed in this run: what they recorded is not written. */
  failed: number;
  /** Tests begun on a shared server that never ended (their runner stopped): not written. */
  unfinished: number;
}

/** Sessions created outside any test (a `beforeAll`) are one group of their own. */
const OUTSIDE_TESTS = '';

const groupOf = (session: CassetteSession) => session.test ?? OUTSIDE_TESTS;

/**
 * A recording per test (`per: 'test'`) put into the cassette file as it was: the sessions of each
 * test that ran and passed replace that test's old ones (at their place; a new test's go at the
 * end), and every other session stays as it was, byte for byte: those of tests that did not run
 * (`-t`, a skipped test) and of tests that failed, whose new recording is never written. When old
 * sessions stay, the file keeps its own `recordedAt` (the age of its oldest recording) and each
 * new session carries its own; when none does, the new recording's provenance heads the file.
 */
export function mergeTestRecording(
  old: Cassette | undefined,
  fresh: Cassette,
  outcomes: TestOutcomes,
): RecordingMerge {
  const ranOutsideTests = outcomes.ran.size > 0 || fresh.sessions.some((s) => s.test === undefined);
  // A test that recorded sessions ran, begun or not (a test scope of another process keys them).
  const ran = new Set([...outcomes.ran, ...fresh.sessions.map(groupOf)]);
  const replaces = (group: string) =>
    group === OUTSIDE_TESTS
      ? ranOutsideTests
      : ran.has(group) &&
        !outcomes.failed.has(group) &&
        outcomes.skipped?.has(group) !== true &&
        outcomes.unfinished?.has(group) !== true;
  const freshByGroup = new Map<string, CassetteSession[]>();
  for (const session of fresh.sessions) {
    const group = groupOf(session);
    if (!replaces(group)) continue;
    const list = freshByGroup.get(group);
    if (list === undefined) freshByGroup.set(group, [session]);
    else list.push(session);
  }
  const oldSessions = old?.sessions ?? [];
  const keptTests = new Set(oldSessions.map(groupOf).filter((g) => g !== OUTSIDE_TESTS && !replaces(g)));
  const keepsOld = oldSessions.some((session) => !replaces(groupOf(session)));
  const stamped = (session: CassetteSession): CassetteSession =>
    keepsOld && fresh.recordedAt !== undefined ? { ...session, recordedAt: fresh.recordedAt } : session;

  const sessions: CassetteSession[] = [];
  const placed = new Set<string>();
  for (const session of oldSessions) {
    const group = groupOf(session);
    if (!replaces(group)) {
      sessions.push(session);
    } else if (!placed.has(group)) {
      placed.add(group);
      sessions.push(...(freshByGroup.get(group) ?? []).map(stamped));
    }
  }
  for (const [group, list] of freshByGroup) {
    if (!placed.has(group)) sessions.push(...list.map(stamped));
  }

  const recordedTests = new Set(
    [...freshByGroup.keys(), ...oldSessions.map(groupOf)].filter(
      (group) => group !== OUTSIDE_TESTS && replaces(group),
    ),
  );
  const failed = [...outcomes.failed].filter((test) => ran.has(test)).length;
  const changes = freshByGroup.size > 0 || oldSessions.some((session) => replaces(groupOf(session)));
  const cassette =
    !changes || (old !== undefined && sameSessions(old.sessions, sessions))
      ? undefined
      : keepsOld && old !== undefined
        ? { ...old, version: fresh.version, sessions }
        : { ...fresh, sessions };
  const unfinished = outcomes.unfinished?.size ?? 0;
  return { cassette, recorded: recordedTests.size, kept: keptTests.size, failed, unfinished };
}

function sameSessions(a: readonly CassetteSession[], b: readonly CassetteSession[]): boolean {
  return a.length === b.length && a.every((session, i) => session === b[i]);
}

/** `cassette x.json: 1 test recorded, 2 kept`, and the failed tests whose recording was not written. */
export function describeMerge(file: string, merge: RecordingMerge): string {
  const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
  const failed =
    merge.failed === 0
      ? ''
      : `; ${tests(merge.failed)} failed, ${merge.failed === 1 ? 'its' : 'their'} recording not written`;
  const unfinished =
    merge.unfinished === 0
      ? ''
      : `; ${tests(merge.unfinished)} never ended (the runner stopped first), not written`;
  const unchanged = merge.cassette === undefined ? ' (the file is unchanged)' : '';
  return `cassette ${file}: ${tests(merge.recorded)} recorded, ${merge.kept} kept${failed}${unfinished}${unchanged}`;
}
