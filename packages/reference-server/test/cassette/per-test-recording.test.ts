import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCassetteText } from '@parley/reference-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { runVitest } from '../runners/run-fixture.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const CONFIG = fileURLToPath(new URL('./fixtures/vitest.fixture.config.ts', import.meta.url));
const FIXTURE = 'packages/reference-server/test/cassette/fixtures/tests-recorded.fixture.ts';
/** Runs the fixture in a vitest of its own, with no cassette mode but the one given; its exit code and output. */
const runFixture = (args: string[], env: Record<string, string>) =>
  runVitest(CONFIG, [FIXTURE, ...args], ROOT, { PARLEY_CASSETTE_MODE: '', ...env });
const T1 = '1700000000000';
const T2 = '1710000000000';

/** The text of each test's sessions in the file, by test: the bytes a run must keep. */
function sessionTexts(text: string): Map<string, string> {
  const texts = new Map<string, string>();
  for (const chunk of text.split(/\n {4}\{\n/).slice(1)) {
    const session = chunk.slice(0, chunk.lastIndexOf('\n    }'));
    const test = /^ {6}"test": (".*"),$/m.exec(session)?.[1];
    if (test === undefined) continue;
    const name = JSON.parse(test) as string;
    texts.set(name, `${texts.get(name) ?? ''}${session}`);
  }
  return texts;
}

/** The cassette the fixture's three tests recorded, in one run shared by the tests below. */
let recorded = '';

/** A copy of that cassette in a directory of its own, for a test to run against; and its text. */
function recordAll(): { file: string; text: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'parley-per-test-record-')), 'weather.json');
  copyFileSync(recorded, file);
  return { file, text: readFileSync(file, 'utf8') };
}

describe("recording a cassette per test (per: 'test') never loses a recording", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    recorded = join(mkdtempSync(join(tmpdir(), 'parley-per-test-record-')), 'weather.json');
    const run = await runFixture([], { CASSETTE: recorded, PARLEY_CASSETTE_MODE: 'record', NOW: T1 });
    expect(run.output).toContain(`cassette ${recorded}: 3 tests recorded, 0 kept`);
    expect(run.status).toBe(0);
  }, 180_000);

  it('re-recording one test with -t replaces that test alone and keeps the others byte for byte, saying so', async () => {
    const { file, text: before } = recordAll();
    const run = await runFixture(['-t', 'Oslo'], { CASSETTE: file, PARLEY_CASSETTE_MODE: 'record', NOW: T2 });
    expect(run.status).toBe(0);
    expect(run.output).toContain(`cassette ${file}: 1 test recorded, 2 kept`);
    const after = readFileSync(file, 'utf8');
    const [old, now] = [sessionTexts(before), sessionTexts(after)];
    expect([...now.keys()]).toEqual(['weather > Paris', 'weather > Oslo', 'a joke']);
    expect(now.get('weather > Paris')).toBe(old.get('weather > Paris'));
    expect(now.get('a joke')).toBe(old.get('a joke'));
    // The test recorded again carries its own time; the file keeps that of its oldest recording.
    const cassette = parseCassetteText(after);
    expect(cassette.recordedAt).toBe(new Date(Number(T1)).toISOString());
    expect(cassette.sessions.find((s) => s.test === 'weather > Oslo')?.recordedAt).toBe(
      new Date(Number(T2)).toISOString(),
    );
  });

  it("a test that fails while recording keeps the file's recording of it; the tests that passed are recorded", async () => {
    const { file, text: before } = recordAll();
    const run = await runFixture([], {
      CASSETTE: file,
      PARLEY_CASSETTE_MODE: 'record',
      NOW: T2,
      FAIL: 'Oslo',
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain(
      `cassette ${file}: 2 tests recorded, 1 kept; 1 test failed, its recording not written`,
    );
    expect(sessionTexts(readFileSync(file, 'utf8')).get('weather > Oslo')).toBe(
      sessionTexts(before).get('weather > Oslo'),
    );
  });

  it('a mismatch names the command that records that one test again, which runs it alone, and does not suggest allowUnused', async () => {
    const { file } = recordAll();
    const run = await runFixture([], { CASSETTE: file, PARLEY_CASSETTE_MODE: 'replay', OSLO_ASKS: 'Paris' });
    expect(run.status).not.toBe(0);
    const command = `PARLEY_CASSETTE_MODE=record npx vitest run '${FIXTURE}' -t '^weather Oslo$'`;
    // Recording needs the deployment: the fix names the one the cassette was recorded from.
    expect(run.output).toMatch(
      /The test sends something else than when it was recorded: record this test again with upstream: \{ url: 'https?:\/\/[^']+' \} \(where it was recorded from\): /,
    );
    expect(run.output).toContain(`(where it was recorded from): ${command}`);
    expect(run.output).not.toContain('allowUnused');
    // The -t of that command picks the test out, and the recording is good.
    const again = await runFixture(['-t', '^weather Oslo$'], {
      CASSETTE: file,
      PARLEY_CASSETTE_MODE: 'replay',
    });
    expect(again.output).toMatch(/1 passed \| 2 skipped|2 skipped \| 1 passed/);
    expect(again.status).toBe(0);
  });

  it("auto records the tests a cassette lacks when an upstream is given (Polly's recordIfMissing), keeping the others", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-per-test-auto-')), 'weather.json');
    const first = await runFixture(['-t', 'Paris'], {
      CASSETTE: file,
      PARLEY_CASSETTE_MODE: 'record',
      NOW: T1,
    });
    expect(first.output).toContain(`cassette ${file}: 1 test recorded, 0 kept`);
    const before = readFileSync(file, 'utf8');
    const run = await runFixture([], { CASSETTE: file, PARLEY_CASSETTE_MODE: 'auto', NOW: T2 });
    expect(run.status).toBe(0);
    expect(run.output).toContain(`cassette ${file}: 2 sessions added (record-missing)`);
    const after = readFileSync(file, 'utf8');
    expect([...sessionTexts(after).keys()]).toEqual(['weather > Paris', 'weather > Oslo', 'a joke']);
    expect(sessionTexts(after).get('weather > Paris')).toBe(sessionTexts(before).get('weather > Paris'));
  });
});
