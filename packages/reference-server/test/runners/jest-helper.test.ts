import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from '@parley/reference-server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFixture } from './run-fixture.js';

const fixtures = fileURLToPath(new URL('../fixtures/jest/', import.meta.url));
const jestBin = fileURLToPath(new URL('../../node_modules/jest/bin/jest.js', import.meta.url));

interface JestFile {
  name: string;
  status: 'passed' | 'failed';
  message: string;
  assertionResults: Array<{ fullName: string; status: string }>;
}

/** The test names of a cassette's sessions and their recorded text. */
function recorded(file: string): string[] {
  const { sessions } = JSON.parse(readFileSync(file, 'utf8')) as {
    sessions: Array<{ test?: string; turns: Array<{ content: Array<{ text?: string }> }> }>;
  };
  return sessions.map((s) => `${s.test}: ${s.turns[0]?.content[0]?.text}`);
}

describe('useReferenceServer from @parley/reference-server/jest, run by Jest', () => {
  const files = new Map<string, JestFile>();
  const dir = mkdtempSync(join(tmpdir(), 'parley-jest-record-'));
  const perTest = join(dir, 'per-test.json');
  const perFile = join(dir, 'per-file.json');
  const seed = readFileSync(join(fixtures, 'per-test.cassette.json'), 'utf8');
  let shared: RunningServer;
  beforeAll(async () => {
    // The shared server of shared.fixture.ts, as `parley-server run --control` gives a command.
    shared = await startServer({ port: 0, control: true, controlToken: 'shared-control-token' });
    // The recordings a failing run must keep, under the names the fixture's tests have.
    writeFileSync(perTest, seed.replaceAll('"weather ', '"per test weather '));
    writeFileSync(perFile, seed);
    const run = await runFixture(
      process.execPath,
      [jestBin, '--config', 'jest.config.cjs', '--ci', '--json'],
      fixtures,
      {
        PER_TEST_CASSETTE: perTest,
        PER_FILE_CASSETTE: perFile,
        PARLEY_BASE_URL: shared.url,
        PARLEY_CONTROL_TOKEN: 'shared-control-token',
      },
    );
    const { testResults } = JSON.parse(run.stdout) as { testResults: JestFile[] };
    for (const file of testResults) files.set(file.name.slice(fixtures.length), file);
  }, 120_000);

  it('answers a scripted turn, resets between tests, and has the toHaveReceived matcher', () => {
    const file = files.get('scripted.fixture.ts');
    expect(file?.assertionResults.map((t) => [t.fullName, t.status])).toEqual([
      ['answers with the scripted turn', 'passed'],
      ['starts the next test clean', 'passed'],
    ]);
  });

  it("replays each test's own recordings with a per-test cassette, keyed by Jest's currentTestName", () => {
    const file = files.get('per-test-cassette.fixture.ts');
    expect(file?.assertionResults.map((t) => [t.fullName, t.status])).toEqual([
      ['weather Oslo', 'passed'],
      ['weather Paris', 'passed'],
    ]);
  });

  it('fails the file when a queued fault was never taken, unless allowUnused', () => {
    const failing = files.get('unused-fault.fixture.ts');
    expect(failing?.assertionResults.map((t) => t.status)).toEqual(['passed']);
    expect(failing?.status).toBe('failed');
    expect(failing?.message).toContain(
      'useReferenceServer: 1 thing was never used (pass allowUnused: true to let this pass):\n' +
        '      fault {"status":503} (1 left) queued in test "queues a fault no request takes (the test itself passes)"',
    );
    expect(files.get('unused-allowed.fixture.ts')?.status).toBe('passed');
  });

  it('works under the jsdom environment with @parley/reference-server/jest-environment-jsdom: a streamed reply through the SDK', () => {
    const file = files.get('jsdom/jsdom.fixture.ts');
    expect(file?.message).toBe('');
    expect(file?.assertionResults.map((t) => t.status)).toEqual(['passed', 'passed']);
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await shared.close();
  });

  it("runs against a shared server (mode: 'shared', PARLEY_BASE_URL): each test its own script and journal, reset after it", async () => {
    const file = files.get('shared.fixture.ts');
    expect(file?.message).toBe('');
    expect(file?.assertionResults.map((t) => [t.fullName, t.status])).toEqual([
      ['on the shared server Oslo', 'passed'],
      ['on the shared server Paris', 'passed'],
    ]);
    // Every request was in a test's scope, and each scope was reset: the server holds nothing.
    expect(shared.server.journal.size).toBe(0);
    const health = await fetch(`${shared.url}/_parley/health`, {
      headers: { 'x-parley-control-token': 'shared-control-token' },
    });
    expect(((await health.json()) as { sessions: number }).sessions).toBe(0);
  });

  it("a failed test's recording never replaces the one the cassette holds (per: 'test'); the tests that passed are recorded", () => {
    const file = files.get('record-outcomes.fixture.ts');
    expect(file?.assertionResults.map((t) => [t.fullName, t.status])).toEqual([
      ['per test weather Oslo', 'failed'],
      ['per test weather Paris', 'passed'],
      ['per file, a test skipped Oslo', 'todo'],
      ['per file, a test skipped Paris', 'passed'],
    ]);
    expect(recorded(perTest)).toEqual([
      'per test weather Paris: Storm warning.',
      'per test weather Oslo: Snow in Oslo.',
    ]);
  });

  it("a run with a skipped test leaves a per: 'file' cassette as it was, byte for byte", () => {
    expect(readFileSync(perFile, 'utf8')).toBe(seed);
  });

  it("refuses to record under an environment that cannot tell a failed test, naming Parley's environment", () => {
    const file = files.get('record-needs-environment.fixture.ts');
    expect(file?.status).toBe('failed');
    expect(file?.message).toContain(
      "useReferenceServer: recording a cassette under Jest needs Parley's test environment",
    );
    expect(file?.message).toContain("testEnvironment: '@parley/reference-server/jest-environment'");
  });

  it('fails at start when given an option of the Playwright fixture, naming its entry', () => {
    const file = files.get('foreign-option.fixture.ts');
    expect(file?.status).toBe('failed');
    expect(file?.message).toContain(
      'TypeError: @parley/reference-server/jest: blockServiceWorkers is an option of the Playwright fixture, ' +
        'from @parley/reference-server/playwright, not of this jest helper',
    );
  });
});
