import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, parseCassetteText } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { USERS } from './conversation.js';
import { askWeather, inProcessUpstream } from './weather-upstream.js';

/** A client whose every request carries `x-parley-test-id: testId`. */
function scopedClient(fetch: (request: Request) => Promise<Response>, testId: string): Parley {
  return new Parley({
    baseUrl: 'http://local.test',
    token: USERS[0]?.token as string,
    maxRetries: 0,
    headers: { 'x-parley-test-id': testId },
    fetch: (input, init) => fetch(new Request(input, init)),
  });
}

describe("a cassette per test on a shared server: the test id is the key (per: 'test')", () => {
  it('tests recorded at the same time are written under their test ids, and replay their own in any order', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-scoped-')), 'weather.json');
    const { options } = inProcessUpstream();
    const proxy = createReferenceServer({ users: USERS, upstream: options, record: { file, per: 'test' } });
    await Promise.all([
      askWeather(scopedClient(proxy.fetch, 'weather > Paris'), 'Paris'),
      askWeather(scopedClient(proxy.fetch, 'weather > Oslo'), 'Oslo'),
    ]);
    await proxy.close();
    const recorded = parseCassetteText(readFileSync(file, 'utf8'));
    expect(recorded.sessions.map((s) => s.test).sort()).toEqual(['weather > Oslo', 'weather > Paris']);

    const replay = createReferenceServer({ users: USERS, replay: { cassette: file, per: 'test' } });
    const [oslo, paris] = await Promise.all([
      askWeather(scopedClient(replay.fetch, 'weather > Oslo'), 'Oslo'),
      askWeather(scopedClient(replay.fetch, 'weather > Paris'), 'Paris'),
    ]);
    expect(oslo).toBe('Sorry, I could not find Oslo.');
    expect(paris).toBe('It is 18 degrees in Paris, and sunny.');
  });
});
