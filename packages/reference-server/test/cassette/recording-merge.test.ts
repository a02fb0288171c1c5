import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Cassette,
  type CassetteSession,
  formatCassette,
  writeCassetteFile,
} from '@parley/reference-server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeMerge, mergeTestRecording } from '../../src/cassette/recording-merge.js';
import { writeRecording } from '../../src/cassette/write-recording.js';

const OLD_AT = '2025-01-01T00:00:00.000Z';
const NEW_AT = '2025-06-01T00:00:00.000Z';

function session(test: string | undefined, text: string): CassetteSession {
  return {
    ...(test === undefined ? {} : { test }),
    customizations: null,
    turns: [
      {
        input: { user: [{ type: 'text', text }] },
        content: [{ type: 'text', text }],
        stopReason: 'end_turn',
      },
    ],
  };
}

function cassette(recordedAt: string, sessions: CassetteSession[]): Cassette {
  return { format: 'parley-cassette', version: 2, recordedAt, sessions };
}

const outcomes = (ran: string[], failed: string[] = []) => ({
  ran: new Set(ran),
  failed: new Set(failed),
  notRun: new Set<string>(),
});

describe('merging a recording per test into its file', () => {
  const old = cassette(OLD_AT, [session('a', 'old a'), session('b', 'old b'), session('c', 'old c')]);

  it('the tests that ran and passed replace theirs in place; the others stay the same objects', () => {
    const fresh = cassette(NEW_AT, [session('b', 'new b'), session('d', 'new d')]);
    const merge = mergeTestRecording(old, fresh, outcomes(['b', 'd']));
    expect(merge.cassette?.sessions.map((s) => s.turns[0]?.content)).toEqual([
      [{ type: 'text', text: 'old a' }],
      [{ type: 'text', text: 'new b' }],
      [{ type: 'text', text: 'old c' }],
      [{ type: 'text', text: 'new d' }],
    ]);
    expect(merge.cassette?.sessions[0]).toBe(old.sessions[0]);
    expect(merge.cassette?.sessions[2]).toBe(old.sessions[2]);
    // The file keeps the time of its oldest recording; each new session carries its own.
    expect(merge.cassette?.recordedAt).toBe(OLD_AT);
    expect(merge.cassette?.sessions.map((s) => s.recordedAt)).toEqual([undefined, NEW_AT, undefined, NEW_AT]);
    expect(describeMerge('x.json', merge)).toBe('cassette x.json: 2 tests recorded, 2 kept');
  });

  it('a test that failed keeps its old recording, and what it recorded is never written', () => {
    const fresh = cassette(NEW_AT, [session('a', 'new a'), session('b', 'broken b')]);
    const merge = mergeTestRecording(old, fresh, outcomes(['a', 'b'], ['b']));
    expect(merge.cassette?.sessions[1]).toBe(old.sessions[1]);
    expect(JSON.stringify(merge.cassette)).not.toContain('broken b');
    expect(describeMerge('x.json', merge)).toBe(
      'cassette x.json: 1 test recorded, 2 kept; 1 test failed, its recording not written',
    );
  });

  it('a run that recorded nothing leaves the file unchanged, and says so', () => {
    const merge = mergeTestRecording(old, cassette(NEW_AT, [session('a', 'x')]), outcomes(['a'], ['a']));
    expect(merge.cassette).toBeUndefined();
    expect(describeMerge('x.json', merge)).toBe(
      'cassette x.json: 0 tests recorded, 3 kept; 1 test failed, its recording not written (the file is unchanged)',
    );
  });

  it('recording every test again heads the file with the new recording, sessions without times of their own', () => {
    const fresh = cassette(NEW_AT, [session('a', '1'), session('b', '2'), session('c', '3')]);
    const merge = mergeTestRecording(old, fresh, outcomes(['a', 'b', 'c']));
    expect(merge.cassette).toEqual(fresh);
  });

  it('for any runs: every session of a test not recorded again stays, in order, and no failed test is written', () => {
    const tests = ['a', 'b', 'c', 'd', 'e'];
    const sessionOf = fc.record({ test: fc.constantFrom(...tests), text: fc.string({ maxLength: 4 }) });
    fc.assert(
      fc.property(
        fc.array(sessionOf, { maxLength: 8 }),
        fc.array(sessionOf, { maxLength: 8 }),
        fc.subarray(tests),
        fc.subarray(tests),
        (oldOnes, freshOnes, ran, failed) => {
          const before = cassette(
            OLD_AT,
            oldOnes.map((s) => session(s.test, `old ${s.text}`)),
          );
          const fresh = cassette(
            NEW_AT,
            freshOnes.map((s) => session(s.test, `new ${s.text}`)),
          );
          // A test that recorded sessions ran, whether or not it was begun (a test scope's).
          const recorded = (test: string) =>
            (ran.includes(test) || fresh.sessions.some((s) => s.test === test)) && !failed.includes(test);
          const merge = mergeTestRecording(before, fresh, outcomes(ran, failed));
          const after = merge.cassette?.sessions ?? before.sessions;
          const kept = before.sessions.filter((s) => !recorded(s.test ?? ''));
          expect(after.filter((s) => kept.includes(s))).toEqual(kept);
          const written = after.filter((s) => !before.sessions.includes(s));
          for (const s of written) expect(recorded(s.test ?? '')).toBe(true);
          for (const test of tests) {
            const of = (list: CassetteSession[]) => list.filter((s) => s.test === test).map((s) => s.turns);
            expect(of(written)).toEqual(recorded(test) ? of(fresh.sessions) : []);
          }
        },
      ),
    );
  });
});

describe('writing a cassette file', () => {
  it('replaces the file in one rename: the old file is never written into, and no temporary file is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-atomic-'));
    const file = join(dir, 'c.json');
    await writeCassetteFile(file, cassette(OLD_AT, [session('a', 'old')]));
    const oldText = readFileSync(file, 'utf8');
    // A second name for the old file's contents: a write into the file would show through it.
    linkSync(file, join(dir, 'old-contents'));
    await writeCassetteFile(file, cassette(NEW_AT, [session('a', 'new')]));
    expect(readFileSync(join(dir, 'old-contents'), 'utf8')).toBe(oldText);
    expect(readFileSync(file, 'utf8')).toBe(formatCassette(cassette(NEW_AT, [session('a', 'new')])));
    expect(readdirSync(dir).sort()).toEqual(['c.json', 'old-contents']);
  });

  it('a write that fails leaves the old file as it was and no temporary file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-atomic-'));
    // A folder where the file would go: the text is written, the rename fails.
    const file = join(dir, 'c.json');
    mkdirSync(file);
    await expect(writeCassetteFile(file, cassette(NEW_AT, []))).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['c.json']);
  });
});

describe("recording per file (per: 'file')", () => {
  it('a run in which a test failed, or some tests did not run, does not replace the recording the file holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-per-file-'));
    const file = join(dir, 'c.json');
    await writeCassetteFile(file, cassette(OLD_AT, [session(undefined, 'old')]));
    const before = readFileSync(file, 'utf8');
    const lines: string[] = [];
    const fresh = cassette(NEW_AT, [session(undefined, 'new')]);
    const log = (line: string) => lines.push(line);
    await writeRecording(file, fresh, { per: 'file', outcomes: outcomes(['a', 'b'], ['b']), log });
    await writeRecording(file, fresh, {
      per: 'file',
      outcomes: { ran: new Set(['a']), failed: new Set(), notRun: new Set(['b']) },
      log,
    });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(lines).toEqual([
      `cassette ${file}: not written, 1 test failed in this run (the file's recording is kept; with per: 'test' a run records the tests that ran and passed, and keeps the others)`,
      `cassette ${file}: not written, 1 test of the file did not run (-t, .skip, .only), and per: 'file' records a file whole (the file's recording is kept; with per: 'test' a run records the tests that ran and passed, and keeps the others)`,
    ]);
    await writeRecording(file, fresh, { per: 'file', outcomes: outcomes(['a', 'b']), log });
    expect(readFileSync(file, 'utf8')).toBe(formatCassette(fresh));
    expect(lines.at(-1)).toBe(`cassette ${file}: recorded, 1 session`);
  });
});
