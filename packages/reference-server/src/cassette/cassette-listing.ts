import { statSync } from 'node:fs';
import { readCassetteFile } from './cassette-file.js';
import { InvalidCassetteError } from './cassette-format.js';
import { DEFAULT_LINT_MAX_BYTES } from './cassette-lint.js';

/** Characters of a session's first user text a listing shows. */
const SHOWN_TEXT_CHARS = 60;

/** What a cassette file holds, for a reviewer: `parley-server cassette list`. */
export interface CassetteListing {
  file: string;
  bytes: number;
  version: number;
  recordedAt?: string;
  upstream?: string;
  parleyVersion?: string;
  turns: number;
  /** The tests it holds recordings of (`per: 'test'`), in order of first appearance. */
  tests: Array<{ name: string; sessions: number; turns: number }>;
  sessions: Array<{
    /** 1-based, as mismatch messages count them. */
    number: number;
    test?: string;
    recordedAt?: string;
    turns: number;
    /** The first user text, cut to 60 characters. */
    firstUserText?: string;
  }>;
}

/** Reads a cassette file (validated as at load; one over `maxBytes` is refused unread) and lists what it holds. */
export function listCassetteFile(file: string, maxBytes = DEFAULT_LINT_MAX_BYTES): CassetteListing {
  let bytes: number;
  try {
    bytes = statSync(file).size;
  } catch (error) {
    throw new InvalidCassetteError(file, [(error as Error).message], { cause: error });
  }
  if (bytes > maxBytes) {
    throw new InvalidCassetteError(file, [
      `is ${(bytes / 1024 / 1024).toFixed(1)} MiB, over the limit of ${(maxBytes / 1024 / 1024).toFixed(1)} MiB: not read (--max-size raises it)`,
    ]);
  }
  const cassette = readCassetteFile(file);
  const tests = new Map<string, { name: string; sessions: number; turns: number }>();
  const sessions = cassette.sessions.map((session, i) => {
    if (session.test !== undefined) {
      const test = tests.get(session.test) ?? { name: session.test, sessions: 0, turns: 0 };
      test.sessions++;
      test.turns += session.turns.length;
      tests.set(session.test, test);
    }
    const first = session.turns.find((turn) => 'user' in turn.input)?.input;
    const text = first !== undefined && 'user' in first ? first.user.map((b) => b.text).join('') : undefined;
    return {
      number: i + 1,
      ...(session.test === undefined ? {} : { test: session.test }),
      ...(session.recordedAt === undefined ? {} : { recordedAt: session.recordedAt }),
      turns: session.turns.length,
      ...(text === undefined ? {} : { firstUserText: cut(text) }),
    };
  });
  return {
    file,
    bytes,
    version: cassette.version,
    ...(cassette.recordedAt === undefined ? {} : { recordedAt: cassette.recordedAt }),
    ...(cassette.upstream === undefined ? {} : { upstream: cassette.upstream }),
    ...(cassette.parleyVersion === undefined ? {} : { parleyVersion: cassette.parleyVersion }),
    turns: sessions.reduce((sum, s) => sum + s.turns, 0),
    tests: [...tests.values()],
    sessions,
  };
}

/** The listing as text: a line about the file, one per test, one per session. */
export function formatCassetteListing(listing: CassetteListing): string {
  const from = listing.upstream === undefined ? '' : ` from ${listing.upstream}`;
  const by = listing.parleyVersion === undefined ? '' : ` (parley ${listing.parleyVersion})`;
  const when =
    listing.recordedAt === undefined ? 'recorded at an unknown time' : `recorded ${listing.recordedAt}`;
  const lines = [
    `${listing.file}: ${count(listing.sessions.length, 'session')}, ${count(listing.turns, 'turn')}, ${when}${from}${by}`,
  ];
  if (listing.tests.length > 0) {
    lines.push(`  tests (${listing.tests.length}):`);
    for (const test of listing.tests) {
      lines.push(
        `    ${JSON.stringify(test.name)}: ${count(test.sessions, 'session')}, ${count(test.turns, 'turn')}`,
      );
    }
  }
  lines.push('  sessions:');
  for (const session of listing.sessions) {
    const parts = [
      `    ${session.number}.`,
      ...(session.test === undefined ? [] : [`test ${JSON.stringify(session.test)},`]),
      count(session.turns, 'turn'),
      ...(session.recordedAt === undefined ? [] : [`(added ${session.recordedAt})`]),
      ...(session.firstUserText === undefined ? [] : [`first: ${JSON.stringify(session.firstUserText)}`]),
    ];
    lines.push(parts.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function cut(text: string): string {
  return text.length > SHOWN_TEXT_CHARS ? `${text.slice(0, SHOWN_TEXT_CHARS)}...` : text;
}
