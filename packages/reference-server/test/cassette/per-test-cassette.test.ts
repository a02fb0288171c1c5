import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createReferenceServer, parseCassetteText } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { runVitest } from '../runners/run-fixture.js';
import { USERS } from './conversation.js';
import { askWeather, clientOf, recordPerTest } from './weather-upstream.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const CONFIG = fileURLToPath(new URL('./fixtures/vitest.fixture.config.ts', import.meta.url));

// Two tests below start vitest twice each; on a shared machine one start can take 10 s.
describe("a cassette per test (per: 'test')", { timeout: 120_000 }, () => {
  it("each session is written with the full name of the test that created it, and the recording's provenance", async () => {
    const cassette = parseCassetteText(readFileSync(await recordPerTest(), 'utf8'));
    expect(cassette.sessions.map((s) => s.test)).toEqual(['weather > Paris', 'weather > Oslo']);
    // The upstream's origin only: no user, password or path.
    expect(cassette.upstream).toBe('https://upstream.test:8443');
    expect(cassette.parleyVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isNaN(Date.parse(cassette.recordedAt ?? ''))).toBe(false);
  });

  it('a test replays its own sessions whatever ran before it: alone, or in another order', async () => {
    const file = await recordPerTest();
    const alone = createReferenceServer({ users: USERS, replay: { cassette: file, per: 'test' } });
    alone.cassette?.beginTest('weather > Oslo');
    expect(await askWeather(clientOf(alone.fetch), 'Oslo')).toBe('Sorry, I could not find Oslo.');
    alone.cassette?.beginTest('weather > Paris');
    expect(await askWeather(clientOf(alone.fetch), 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
    expect(alone.cassette?.unused()).toEqual([]);
  });

  it('a test the cassette holds no session for is a replay mismatch naming the test', async () => {
    const file = await recordPerTest();
    const server = createReferenceServer({ users: USERS, replay: { cassette: file, per: 'test' } });
    server.cassette?.beginTest('weather > Rome');
    await expect(askWeather(clientOf(server.fetch), 'Paris')).rejects.toMatchObject({
      code: 'replay_mismatch',
      message: expect.stringContaining('the cassette holds 0 sessions for the test "weather > Rome"'),
    });
  });

  it("per: 'test' outside vitest is refused when the helper is called", async () => {
    const { cassettePlan } = await import('../../src/adapters/vitest-cassette.js');
    expect(() => cassettePlan({}, { file: 'x.json', per: 'test' }, {})).toThrow(
      "cassette per: 'test' keys sessions by the running vitest test: it works only under vitest",
    );
    expect(() => cassettePlan({}, { file: 'x.json', per: 'suite' as 'test' }, { VITEST: 'true' })).toThrow(
      'cassette per "suite" is not one of file, test',
    );
  });

  it('under vitest, with -t, in reverse order: each test replays its recording, and the filtered-out test is not counted unused', async () => {
    const file = await recordPerTest();
    const all = await runVitest(CONFIG, ['per-test.fixture'], ROOT, { CASSETTE: file });
    expect(all.output).toContain('2 passed');
    expect(all.status).toBe(0);
    const filtered = await runVitest(CONFIG, ['per-test.fixture', '-t', 'Oslo'], ROOT, { CASSETTE: file });
    expect(filtered.output).toMatch(/1 passed \| 1 skipped|1 skipped \| 1 passed|1 passed/);
    expect(filtered.status).toBe(0);
  });

  it('a recording never replayed and a fault never taken fail the file after its tests, listed; allowUnused lets them pass', async () => {
    const file = await recordPerTest();
    // The file's only test is "weather > Paris", which plays 1 of its 2 turns; the Oslo recording
    // belongs to a test that did not run, so it is not listed.
    const strict = await runVitest(CONFIG, ['unused.fixture'], ROOT, { CASSETTE: file });
    expect(strict.status).not.toBe(0);
    expect(strict.output).toContain('useReferenceServer: 2 things were never used (pass allowUnused: true');
    expect(strict.output).toContain(
      'recording session 1 of 2 (test "weather > Paris"): 1 of 2 turns replayed',
    );
    expect(strict.output).not.toContain('weather > Oslo');
    expect(strict.output).toContain(
      'fault {"status":503} for DELETE /v1/sessions/* (1 left) queued in test "weather > Paris"',
    );
    const allowed = await runVitest(CONFIG, ['unused.fixture'], ROOT, {
      CASSETTE: file,
      ALLOW_UNUSED: 'true',
    });
    expect(allowed.status).toBe(0);
  });
});
