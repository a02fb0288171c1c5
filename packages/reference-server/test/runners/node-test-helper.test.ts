import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from '@parley/reference-server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunnerRun, runFixture } from './run-fixture.js';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));

/** `ok`/`not ok` of each test and suite TAP lists, by name (nested ones as `suite > test`). */
function tapResults(tap: string): Map<string, boolean> {
  const results = new Map<string, boolean>();
  const open: string[] = [];
  for (const line of tap.split('\n')) {
    const subtest = /^( *)# Subtest: (.*)$/.exec(line);
    if (subtest !== null) {
      open.length = (subtest[1]?.length ?? 0) / 4;
      open.push(subtest[2] ?? '');
      continue;
    }
    const verdict = /^( *)(ok|not ok) \d+ - (.*)$/.exec(line);
    if (verdict === null) continue;
    const depth = (verdict[1]?.length ?? 0) / 4;
    results.set([...open.slice(0, depth), verdict[3]].join(' > '), verdict[2] === 'ok');
  }
  return results;
}

/** The test names of a cassette's sessions and their recorded text. */
function recorded(file: string): string[] {
  const { sessions } = JSON.parse(readFileSync(file, 'utf8')) as {
    sessions: Array<{ test?: string; turns: Array<{ content: Array<{ text?: string }> }> }>;
  };
  return sessions.map((s) => `${s.test}: ${s.turns[0]?.content[0]?.text}`);
}

describe('useReferenceServer from @parley/reference-server/node-test, run by node --test', () => {
  let run: RunnerRun;
  let results: Map<string, boolean>;
  const dir = mkdtempSync(join(tmpdir(), 'parley-node-test-record-'));
  const perTest = join(dir, 'per-test.json');
  const perFile = join(dir, 'per-file.json');
  const seed = readFileSync(join(packageDir, 'test/fixtures/node-test/per-test.cassette.json'), 'utf8');
  let shared: RunningServer;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await shared.close();
  });
  beforeAll(async () => {
    // The shared server of shared.fixture.ts, as `parley-server run --control` gives a command.
    shared = await startServer({ port: 0, control: true, controlToken: 'shared-control-token' });
    // The recordings a failing run must keep, under the names the fixture's tests have.
    writeFileSync(perTest, seed.replaceAll('"weather > ', '"recording per test > weather > '));
    writeFileSync(perFile, seed);
    run = await runFixture(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=@parley/source',
        '--test',
        '--test-reporter=tap',
        'test/fixtures/node-test/scripted.fixture.ts',
        'test/fixtures/node-test/per-test-cassette.fixture.ts',
        'test/fixtures/node-test/unused-fault.fixture.ts',
        'test/fixtures/node-test/foreign-option.fixture.ts',
        'test/fixtures/node-test/record-outcomes.fixture.ts',
        'test/fixtures/node-test/shared.fixture.ts',
      ],
      packageDir,
      {
        PER_TEST_CASSETTE: perTest,
        PER_FILE_CASSETTE: perFile,
        PARLEY_BASE_URL: shared.url,
        PARLEY_CONTROL_TOKEN: 'shared-control-token',
      },
    );
    results = tapResults(run.stdout);
  }, 120_000);

  it('answers a scripted turn, resets between tests, and asserts what the journal received', () => {
    expect(results.get('answers with the scripted turn')).toBe(true);
    expect(results.get('starts the next test clean')).toBe(true);
  });

  it("replays each test's own recordings with a per-test cassette, keyed by t.fullName", () => {
    expect(results.get('weather > Oslo')).toBe(true);
    expect(results.get('weather > Paris')).toBe(true);
  });

  it('fails the suite when a queued fault was never taken, naming the test, unless allowUnused', () => {
    expect(
      results.get('a fault never taken > queues a fault no request takes (the test itself passes)'),
    ).toBe(true);
    expect(results.get('a fault never taken')).toBe(false);
    expect(run.stdout).toContain(
      '    useReferenceServer: 1 thing was never used (pass allowUnused: true to let this pass):\n' +
        '      fault {"status":503} (1 left) queued in test "a fault never taken > queues a fault no request takes (the test itself passes)"',
    );
    expect(results.get('a fault never taken, allowed')).toBe(true);
    expect(run.status).toBe(1);
  });

  it("a failed test's recording never replaces the one the cassette holds (per: 'test'); the tests that passed are recorded", () => {
    expect(results.get('recording per test > weather > Oslo')).toBe(false);
    expect(results.get('recording per test > weather > Paris')).toBe(true);
    expect(recorded(perTest)).toEqual([
      'recording per test > weather > Paris: Storm warning.',
      'recording per test > weather > Oslo: Snow in Oslo.',
    ]);
  });

  it("a run in which a test failed leaves a per: 'file' cassette as it was, byte for byte", () => {
    expect(results.get('recording per file > weather > Oslo')).toBe(false);
    expect(readFileSync(perFile, 'utf8')).toBe(seed);
  });

  it("runs against a shared server (mode: 'shared', PARLEY_BASE_URL): each test its own script and journal, reset after it", async () => {
    expect(results.get('on the shared server > Oslo')).toBe(true);
    expect(results.get('on the shared server > Paris')).toBe(true);
    // Every request was in a test's scope, and each scope was reset: the server holds nothing.
    expect(shared.server.journal.size).toBe(0);
    const health = await fetch(`${shared.url}/_parley/health`, {
      headers: { 'x-parley-control-token': 'shared-control-token' },
    });
    expect(((await health.json()) as { sessions: number }).sessions).toBe(0);
  });

  it('fails at start when given an option of the Playwright fixture, naming its entry', () => {
    expect(run.stdout).toContain(
      'TypeError: @parley/reference-server/node-test: attachJournal is an option of the Playwright fixture, ' +
        'from @parley/reference-server/playwright, not of this node:test helper',
    );
    expect([...results].filter(([name]) => name.endsWith('foreign-option.fixture.ts'))).toEqual([
      [expect.stringMatching(/foreign-option\.fixture\.ts$/), false],
    ]);
  });
});
