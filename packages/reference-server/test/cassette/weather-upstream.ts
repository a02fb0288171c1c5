import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, ManualClock, type UpstreamOptions } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { UPSTREAM_SCRIPT, USERS, WEATHER_TOOL } from './conversation.js';

/** A deployment in this process (a reference server with the weather script) and its options as `upstream`. */
export function inProcessUpstream() {
  const upstream = createReferenceServer({ users: USERS, clock: new ManualClock(1_700_000_000_000) });
  upstream.script(UPSTREAM_SCRIPT);
  const options: UpstreamOptions = {
    url: 'https://user:secret@upstream.test:8443/base',
    // A Request refuses a URL with credentials; they and the path are only there to show they are never written.
    fetch: (input, init) =>
      upstream.fetch(new Request(input.replace('user:secret@', '').replace('/base/', '/'), init)),
    log: () => {},
  };
  return { upstream, options };
}

/** An SDK client of a server in this process, with the token the upstream knows too. */
export function clientOf(fetch: (request: Request) => Promise<Response>): Parley {
  return new Parley({
    baseUrl: 'http://local.test',
    token: USERS[0]!.token,
    maxRetries: 0,
    fetch: (input, init) => fetch(new Request(input, init)),
  });
}

/** One session: asks the weather in a city, answers the tool call (Oslo's lookup fails), returns the final text. */
export async function askWeather(client: Parley, city: 'Paris' | 'Oslo'): Promise<string> {
  const { sessionId } = await client.sessions.create({
    customizations: { extensions: { tools: WEATHER_TOOL } },
  });
  const asked = await client.messages.send(sessionId, { content: `What is the weather in ${city}?` });
  const requestId = asked.pendingTools[0]!.requestId;
  if (city === 'Paris') await client.tools.respond(sessionId, requestId, { temperatureC: 18, sky: 'sunny' });
  else await client.tools.fail(sessionId, requestId, 'City not found');
  const reply = await client.messages.send(sessionId, {});
  return reply.messages
    .at(-1)!
    .content.map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
}

/**
 * Records Paris in the test "weather > Paris", then Oslo in "weather > Oslo", per test, into a new
 * cassette file in a folder of its own; the file. The line the recording logs as it is written is
 * kept out of the test's output.
 */
export async function recordPerTest(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'parley-per-test-')), 'weather.json');
  const { options } = inProcessUpstream();
  const proxy = createReferenceServer({ users: USERS, upstream: options, record: { file, per: 'test' } });
  const client = clientOf(proxy.fetch);
  proxy.cassette?.beginTest('weather > Paris');
  await askWeather(client, 'Paris');
  proxy.cassette?.beginTest('weather > Oslo');
  await askWeather(client, 'Oslo');
  const log = console.log;
  console.log = () => {};
  try {
    await proxy.close();
  } finally {
    console.log = log;
  }
  return file;
}
