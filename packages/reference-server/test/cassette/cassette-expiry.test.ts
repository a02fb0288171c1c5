import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, ManualClock, parseCassetteText } from '@parley/reference-server';
import { describe, expect, it, vi } from 'vitest';
import { cassettePlan } from '../../src/adapters/vitest-cassette.js';
import { parseDuration } from '../../src/cassette/cassette-expiry.js';
import { PARLEY_VERSION } from '../../src/utils/parley-version.js';
import { USERS } from './conversation.js';
import { askWeather, clientOf, inProcessUpstream } from './weather-upstream.js';

const DAY = 86_400_000;
const RECORDED = Date.parse('2024-01-01T00:00:00.000Z');

/** A cassette recorded at RECORDED on the server's clock. */
async function recordedCassette(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'parley-expiry-')), 'weather.json');
  const { options } = inProcessUpstream();
  const proxy = createReferenceServer({
    users: USERS,
    clock: new ManualClock(RECORDED),
    upstream: options,
    record: file,
  });
  await askWeather(clientOf(proxy.fetch), 'Paris');
  await proxy.close();
  return file;
}

describe('cassette age (expiresIn, expiryStrategy)', () => {
  it('a duration is a whole number and a unit; anything else is refused naming the value', () => {
    expect(parseDuration('30d')).toBe(30 * DAY);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('2w')).toBe(14 * DAY);
    for (const bad of ['30', 'thirty days', '1.5d', '0d', '-3d', '30 days']) {
      expect(() => parseDuration(bad)).toThrow(`expiresIn ${JSON.stringify(bad)} is not a duration`);
    }
  });

  it('a fresh cassette replays; on the server clock 31 days later, expiryStrategy error fails the start with its age', async () => {
    const file = await recordedCassette();
    const fresh = createReferenceServer({
      users: USERS,
      clock: new ManualClock(RECORDED + 29 * DAY),
      replay: { cassette: file, expiresIn: '30d', expiryStrategy: 'error' },
    });
    expect(await askWeather(clientOf(fresh.fetch), 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
    expect(() =>
      createReferenceServer({
        clock: new ManualClock(RECORDED + 31 * DAY),
        replay: { cassette: file, expiresIn: '30d', expiryStrategy: 'error' },
      }),
    ).toThrow(
      `Cassette ${file} was recorded 2024-01-01T00:00:00.000Z, 31 days ago: older than expiresIn 30d`,
    );
  });

  it('expiryStrategy warn (the default) replays an expired cassette and says so once', async () => {
    const file = await recordedCassette();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      createReferenceServer({
        clock: new ManualClock(RECORDED + 40 * DAY),
        replay: { cassette: file, expiresIn: '30d' },
      });
      expect(warn.mock.calls.map((c) => c[0])).toEqual([
        `[parley] Cassette ${file} was recorded 2024-01-01T00:00:00.000Z, 40 days ago: older than expiresIn 30d: replayed anyway; record it again (PARLEY_CASSETTE_MODE=record)`,
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('expiryStrategy record records the cassette again through the upstream, with the new recordedAt', async () => {
    const file = await recordedCassette();
    const { options } = inProcessUpstream();
    const now = RECORDED + 60 * DAY;
    const server = createReferenceServer({
      users: USERS,
      clock: new ManualClock(now),
      upstream: options,
      replay: { cassette: file, expiresIn: '30d', expiryStrategy: 'record' },
    });
    expect(server.cassette?.mode).toBe('record');
    await askWeather(clientOf(server.fetch), 'Paris');
    await server.close();
    expect(parseCassetteText(readFileSync(file, 'utf8')).recordedAt).toBe(new Date(now).toISOString());
    expect(() =>
      createReferenceServer({
        clock: new ManualClock(now + 2 * DAY),
        replay: { cassette: file, expiresIn: '1d', expiryStrategy: 'record' },
      }),
    ).toThrow(
      "expired and expiryStrategy: 'record' records it again: that needs its file path and upstream: { url }",
    );
  });

  it('a cassette without the provenance fields still loads and replays; with expiresIn its age counts as unknown, so expired', async () => {
    const file = await recordedCassette();
    const {
      recordedAt: _r,
      upstream: _u,
      parleyVersion: _v,
      ...old
    } = parseCassetteText(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify(old));
    const server = createReferenceServer({ users: USERS, replay: file });
    expect(await askWeather(clientOf(server.fetch), 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
    expect(() =>
      createReferenceServer({ replay: { cassette: file, expiresIn: '30d', expiryStrategy: 'error' } }),
    ).toThrow('has no recordedAt (recorded before Parley 0.1.0), so its age is unknown');
  });

  it('bad settings fail at start: a malformed expiresIn, an unknown strategy, an unknown mode', async () => {
    const file = await recordedCassette();
    expect(() => createReferenceServer({ replay: { cassette: file, expiresIn: '30 days' } })).toThrow(
      'expiresIn "30 days" is not a duration',
    );
    expect(() =>
      createReferenceServer({
        replay: { cassette: file, expiresIn: '1d', expiryStrategy: 'delete' as 'warn' },
      }),
    ).toThrow('expiryStrategy "delete" is not a strategy: use warn, error or record');
    expect(() => cassettePlan({}, { file, expiresIn: 'soon' }, {})).toThrow(
      'expiresIn "soon" is not a duration',
    );
    expect(() => cassettePlan({}, { file, mode: 'playback' as 'replay' }, {})).toThrow(
      'cassette mode "playback" is not a cassette mode: use replay, record, auto or record-missing',
    );
  });

  it("the vitest helper's plan: an expired cassette under record is recorded again (cassetteMode record)", async () => {
    const file = await recordedCassette();
    const clock = new ManualClock(RECORDED + 90 * DAY);
    const plan = cassettePlan(
      { clock, upstream: { url: 'http://upstream.test' } },
      { file, expiresIn: '30d', expiryStrategy: 'record' },
      {},
    );
    expect(plan.cassetteMode).toBe('record');
    expect(plan.serverOptions.record).toMatchObject({ file });
  });

  it('the version written is the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(PARLEY_VERSION).toBe(pkg.version);
  });
});
