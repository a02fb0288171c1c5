import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
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

describe('useReferenceServer from @parley/reference-server/node-test, run by node --test', () => {
  let run: RunnerRun;
  let results: Map<string, boolean>;
  beforeAll(async () => {
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
      ],
      packageDir,
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
