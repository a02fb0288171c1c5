import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCassetteText } from '@parley/reference-server';
import { startServer } from '@parley/reference-server/node';
import { Parley } from '@parley/sdk';
import { describe, expect, it, vi } from 'vitest';
import { createRunnerHarness, type TestOutcome } from '../../src/adapters/runner-harness.js';
import { UPSTREAM_TOKEN, USERS } from './conversation.js';
import { askWeather, inProcessUpstream } from './weather-upstream.js';

const CONTROL_TOKEN = 'shared-outcome-control-token';
const VITEST = { runner: 'vitest', verdict: 'file' } as const;

/** What one test of a run does: asks the weather in a city, then ends so (or never, its runner died). */
interface RunTest {
  name: string;
  city: 'Paris' | 'Oslo';
  outcome: TestOutcome | 'never';
}

/**
 * One test run against a shared server that records (`parley-server --record FILE --per ...
 * --control`): a runner helper in shared mode runs `tests`, then the server closes (and writes).
 */
async function recordingRun(
  file: string,
  per: 'file' | 'test' | 'record-missing',
  tests: readonly RunTest[],
): Promise<string[]> {
  const { options } = inProcessUpstream();
  // What the server says it wrote.
  const said: string[] = [];
  const logged = vi.spyOn(console, 'log').mockImplementation((line) => void said.push(String(line)));
  const shared = await startServer({
    port: 0,
    users: USERS,
    upstream: options,
    ...(per === 'record-missing'
      ? { replay: { cassette: file, per: 'test', recordMissing: true } }
      : { record: { file, per } }),
    control: true,
    controlToken: CONTROL_TOKEN,
  });
  try {
    const harness = createRunnerHarness(
      VITEST,
      {
        serverUrl: shared.url,
        controlToken: CONTROL_TOKEN,
        createClient: (init) => new Parley({ ...init, maxRetries: 0 }),
      },
      { PARLEY_TOKEN: UPSTREAM_TOKEN },
    );
    await harness.start();
    for (const test of tests) {
      await harness.beginTest({ name: test.name, file: 'weather.test.ts' });
      await askWeather(harness.handle.client, test.city);
      // A runner that dies mid-test never ends it: the next test begins in another process.
      if (test.outcome !== 'never') await harness.endTest(test.outcome);
    }
    await harness.finish();
  } finally {
    await shared.close();
    logged.mockRestore();
  }
  return said;
}

/** The recorded sessions' tests and their last answers. */
function recordings(file: string): Array<[string | undefined, string]> {
  const cassette = parseCassetteText(readFileSync(file, 'utf8'));
  return cassette.sessions.map((session) => [session.test, JSON.stringify(session).slice(-2000)]);
}

const answerOf = (recording: [string | undefined, string]) =>
  recording[1].includes('18 degrees in Paris') ? 'Paris' : 'Oslo';

describe('a shared server recording per test hears each test outcome from the runner helper (POST /_parley/cassette/outcome)', () => {
  it("a failed, skipped or never-ended test's recording never replaces the one the cassette holds (per: 'test')", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-shared-outcome-')), 'weather.json');
    await recordingRun(file, 'test', [
      { name: 'oslo', city: 'Oslo', outcome: 'passed' },
      { name: 'paris', city: 'Paris', outcome: 'passed' },
      { name: 'lisbon', city: 'Paris', outcome: 'passed' },
    ]);
    const good = readFileSync(file, 'utf8');
    expect(recordings(file).map(([test, text]) => [test, answerOf([test, text])])).toEqual([
      ['weather.test.ts > oslo', 'Oslo'],
      ['weather.test.ts > paris', 'Paris'],
      ['weather.test.ts > lisbon', 'Paris'],
    ]);

    // The next run goes wrong: each test records the other city's conversation, and only "paris"
    // passes; "oslo" fails, "lisbon" is skipped after it began, "madrid" (new) never ends.
    const said = await recordingRun(file, 'test', [
      { name: 'oslo', city: 'Paris', outcome: 'failed' },
      { name: 'lisbon', city: 'Oslo', outcome: 'skipped' },
      { name: 'paris', city: 'Oslo', outcome: 'passed' },
      { name: 'madrid', city: 'Oslo', outcome: 'never' },
    ]);
    expect(said).toEqual([
      `cassette ${file}: 1 test recorded, 2 kept; 1 test failed, its recording not written; ` +
        '1 test never ended (the runner stopped first), not written',
    ]);
    const after = recordings(file);
    expect(after.map(([test, text]) => [test, answerOf([test, text])])).toEqual([
      ['weather.test.ts > oslo', 'Oslo'],
      ['weather.test.ts > paris', 'Oslo'],
      ['weather.test.ts > lisbon', 'Paris'],
    ]);
    // The kept recordings are the good run's, byte for byte.
    const goodSessions = parseCassetteText(good).sessions;
    const afterSessions = parseCassetteText(readFileSync(file, 'utf8')).sessions;
    expect(afterSessions[0]).toEqual(goodSessions[0]);
    expect(afterSessions[2]).toEqual(goodSessions[2]);
  });

  it("after a run where a test failed, or never ended, the cassette recorded per: 'file' is as it was", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-shared-outcome-')), 'weather.json');
    await recordingRun(file, 'file', [{ name: 'oslo', city: 'Oslo', outcome: 'passed' }]);
    const good = readFileSync(file, 'utf8');
    await recordingRun(file, 'file', [
      { name: 'oslo', city: 'Paris', outcome: 'failed' },
      { name: 'paris', city: 'Paris', outcome: 'passed' },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(good);
    await recordingRun(file, 'file', [
      { name: 'oslo', city: 'Paris', outcome: 'passed' },
      { name: 'paris', city: 'Paris', outcome: 'never' },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(good);
    await recordingRun(file, 'file', [{ name: 'oslo', city: 'Paris', outcome: 'passed' }]);
    expect(readFileSync(file, 'utf8')).not.toBe(good);
  });
});

describe('record-missing on a shared server hears the outcomes too', () => {
  it('adds only what a test that passed recorded: not a failed, skipped or never-ended one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-shared-outcome-')), 'weather.json');
    const said = await recordingRun(file, 'record-missing', [
      { name: 'oslo', city: 'Oslo', outcome: 'passed' },
      { name: 'paris', city: 'Paris', outcome: 'failed' },
      { name: 'lisbon', city: 'Paris', outcome: 'skipped' },
      { name: 'madrid', city: 'Paris', outcome: 'never' },
    ]);
    expect(said).toHaveLength(1);
    expect(recordings(file).map(([test, text]) => [test, answerOf([test, text])])).toEqual([
      ['weather.test.ts > oslo', 'Oslo'],
    ]);
  });
});

describe('POST /_parley/cassette/outcome', () => {
  it('refuses an outcome it does not know, and one without the test id, with 400 naming what is missing', async () => {
    const server = await startServer({ port: 0, control: true, controlToken: CONTROL_TOKEN });
    try {
      const post = (body: unknown, testId?: string) =>
        fetch(`${server.url}/_parley/cassette/outcome`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-parley-control-token': CONTROL_TOKEN,
            ...(testId === undefined ? {} : { 'x-parley-test-id': testId }),
          },
          body: JSON.stringify(body),
        });
      const wrong = await post({ outcome: 'timedOut' }, 'a > b');
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
        'outcome: must be one of "running", "passed", "failed", "skipped", e.g. {"outcome":"failed"}',
      );
      const anonymous = await post({ outcome: 'failed' });
      expect(anonymous.status).toBe(400);
      expect(((await anonymous.json()) as { error: { message: string } }).error.message).toMatch(
        /needs the test: send its x-parley-test-id header/,
      );
      // A server without a cassette has nothing to keep: the outcome is taken.
      expect((await post({ outcome: 'failed' }, 'a > b')).status).toBe(204);
    } finally {
      await server.close();
    }
  });
});
