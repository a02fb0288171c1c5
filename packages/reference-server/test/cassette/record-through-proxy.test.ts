import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { startServer } from '@parley/reference-server/node';
import { Parley } from '@parley/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { converse, UPSTREAM_SCRIPT, UPSTREAM_TOKEN, USERS } from './conversation.js';

const LOCAL_TOKEN = 'parley-demo-token';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A deployment over real HTTP: a reference server with a script, standing in for the real one. */
async function startUpstream() {
  const upstream = await startServer({ users: USERS, clock: new ManualClock(1_700_000_000_000) });
  upstream.server.script(UPSTREAM_SCRIPT);
  closers.push(() => upstream.close());
  return upstream;
}

function clientOf(fetch: (request: Request) => Promise<Response>, baseUrl: string) {
  return new Parley({ baseUrl, token: LOCAL_TOKEN, maxRetries: 0, fetch });
}

describe('record through the checking proxy, then replay', () => {
  it('--record writes what passed through the proxy; replayed offline, the SDK gets the same messages, tool calls and final texts', async () => {
    const upstream = await startUpstream();
    const file = join(mkdtempSync(join(tmpdir(), 'parley-record-')), 'weather.json');
    const proxy = createReferenceServer({
      upstream: { url: upstream.url, token: UPSTREAM_TOKEN, log: () => {} },
      record: file,
    });
    const recorded = await converse(clientOf(proxy.fetch, 'http://proxy.test'));
    await proxy.close(); // writes the cassette

    const text = readFileSync(file, 'utf8');
    // Neither the upstream token nor the local one is written.
    expect(text).not.toContain(UPSTREAM_TOKEN);
    expect(text).not.toContain(LOCAL_TOKEN);
    expect(text.toLowerCase()).not.toContain('authorization');

    await upstream.close(); // offline from here on
    const offline = createReferenceServer({ replay: file });
    const replayed = await converse(clientOf(offline.fetch, 'http://offline.test'));
    expect(replayed).toEqual(recorded);
    expect(replayed.finalTexts).toEqual([
      'It is 18 degrees in Paris, and sunny.',
      'Sorry, I could not find Oslo.',
      'Why do programmers prefer dark mode? The light attracts bugs.',
    ]);
  });

  it('record and replay refuse an upstream they cannot use', () => {
    expect(() => createReferenceServer({ record: '/tmp/never.json' })).toThrow(/needs upstream/);
    expect(() =>
      createReferenceServer({
        upstream: { url: 'http://127.0.0.1:9' },
        replay: { cassette: '/tmp/never.json' },
      }),
    ).toThrow(/either `upstream` or `replay`/);
  });
});
