import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock, parseCassetteText } from '@parley/reference-server';
import { runCli, startServer } from '@parley/reference-server/node';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_SCRIPT, USERS } from '../cassette/conversation.js';
import { askWeather } from '../cassette/weather-upstream.js';

// Recorded 2023-11-14: older than 30 days on any clock this test runs on.
const WEATHER = fileURLToPath(new URL('../cassette/cassettes/weather.json', import.meta.url));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

describe('parley-server cassette flags: --record-missing, --cassette-expires-in, --cassette-expiry', () => {
  it('--help lists them with their environment variables', async () => {
    const { out, io: streams } = io();
    expect((await runCli(['--help'], streams)).exitCode).toBe(0);
    const help = out.join('').replace(/\s+/g, ' ');
    for (const [flag, env] of [
      ['--record-missing <file>', 'PARLEY_RECORD_MISSING_FILE'],
      ['--cassette-expires-in <duration>', 'PARLEY_CASSETTE_EXPIRES_IN'],
      ['--cassette-expiry <strategy>', 'PARLEY_CASSETTE_EXPIRY'],
    ]) {
      expect(help).toContain(flag);
      expect(help).toContain(`env: ${env})`);
    }
  });

  it('--record-missing FILE --upstream URL records what the file lacks when the server stops; the next run replays it without the upstream', async () => {
    const upstream = await startServer({ port: 0, users: USERS, clock: new ManualClock(1_700_000_000_000) });
    upstream.server.script(UPSTREAM_SCRIPT);
    const file = join(await mkdtemp(join(tmpdir(), 'parley-cli-missing-')), 'weather.json');
    try {
      const argv = [
        '--port',
        '0',
        '--record-missing',
        file,
        '--upstream',
        upstream.url,
        '--user',
        `app:${USERS[0]!.token}`,
      ];
      const { out, io: streams } = io();
      const first = await runCli(argv, streams);
      expect(out.join('')).toContain(`replaying ${file}, recording what it lacks from ${upstream.url}`);
      const client = new Parley({ baseUrl: first.running!.url, token: USERS[0]!.token, maxRetries: 0 });
      expect(await askWeather(client, 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
      await first.running?.close();
      const cassette = parseCassetteText(await readFile(file, 'utf8'));
      expect(cassette.upstream).toBe(new URL(upstream.url).origin);
      expect(cassette.sessions[0]?.turns).toHaveLength(2);

      const asked = upstream.server.journal.size;
      const again = await runCli(argv, io().io);
      const replayed = new Parley({ baseUrl: again.running!.url, token: USERS[0]!.token, maxRetries: 0 });
      expect(await askWeather(replayed, 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
      await again.running?.close();
      expect(upstream.server.journal.size).toBe(asked);
    } finally {
      await upstream.close();
    }
  });

  it('an expired cassette: warn starts and says so, error exits 2 with its age, a malformed duration exits 2', async () => {
    const warned = io();
    const started = await runCli(
      ['--port', '0', '--replay', WEATHER, '--cassette-expires-in', '30d'],
      warned.io,
    );
    await started.running?.close();
    expect(started.running).toBeDefined();
    expect(warned.err.join('')).toContain(
      `[parley] Cassette ${WEATHER} was recorded 2023-11-14T22:13:20.000Z, `,
    );
    const fresh = io();
    const long = await runCli(
      ['--port', '0', '--replay', WEATHER, '--cassette-expires-in', '100000d'],
      fresh.io,
    );
    await long.running?.close();
    expect(fresh.err.join('')).toBe('');

    const cases: Array<[string[], string]> = [
      [
        ['--replay', WEATHER, '--cassette-expires-in', '30d', '--cassette-expiry', 'error'],
        'older than expiresIn 30d. Record it again',
      ],
      [['--replay', WEATHER, '--cassette-expires-in', '30 days'], 'the duration "30 days" is not a duration'],
      [['--replay', WEATHER, '--cassette-expiry', 'ignore'], 'must be one of warn, error, record'],
      [
        ['--replay', WEATHER, '--cassette-expires-in', '30d', '--cassette-expiry', 'record'],
        'expired, and --cassette-expiry record needs --upstream <url> to record it again',
      ],
      [
        ['--record-missing', 'x.json'],
        '--record-missing x.json needs --upstream <url> (PARLEY_UPSTREAM_URL)',
      ],
      [['--record-missing', 'x.json', '--replay', WEATHER], 'give --record-missing alone'],
      [
        ['--replay', WEATHER, '--replay-on-mismatch', 'upstream'],
        '--replay-on-mismatch upstream needs --upstream',
      ],
    ];
    for (const [argv, message] of cases) {
      const { err, io: streams } = io();
      const result = await runCli(['--port', '0', ...argv], streams);
      expect(result.exitCode).toBe(2);
      expect(err.join('')).toContain(message);
    }
  });
});
