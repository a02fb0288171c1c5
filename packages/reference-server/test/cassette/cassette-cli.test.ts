import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@parley/reference-server/node';
import { InternalServerError, Parley, StreamError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { writeCassetteFile } from '../../src/cassette/write-cassette-file.js';
import { converse, recordedUpstream } from './conversation.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

async function cassetteFile(): Promise<string> {
  const { recorder, client } = recordedUpstream();
  await converse(client);
  const file = join(await mkdtemp(join(tmpdir(), 'parley-cli-')), 'run.json');
  await writeCassetteFile(file, recorder.cassette());
  return file;
}

describe('parley-server record and replay flags', () => {
  it('--help lists the replay and record flags with their environment variables', async () => {
    const { out, io: streams } = io();
    expect((await runCli(['--help'], streams)).exitCode).toBe(0);
    const help = out.join('').replace(/\s+/g, ' ');
    for (const [flag, env] of [
      ['--replay <file>', 'PARLEY_REPLAY_FILE'],
      ['--replay-on-mismatch <mode>', 'PARLEY_REPLAY_ON_MISMATCH'],
      ['--replay-pace <pace>', 'PARLEY_REPLAY_PACE'],
      ['--replay-match <key>', 'PARLEY_REPLAY_MATCH'],
      ['--record <file>', 'PARLEY_RECORD_FILE'],
      ['--record-redact <paths>', 'PARLEY_RECORD_REDACT'],
    ]) {
      expect(help).toContain(flag);
      expect(help).toContain(`env: ${env})`);
    }
  });

  it('--replay FILE answers over HTTP with the recorded turns, and names the file in a mismatch', async () => {
    const file = await cassetteFile();
    const { out, io: streams } = io();
    const result = await runCli(['--port', '0', '--replay', file], streams);
    try {
      expect(out.join('')).toContain(`replaying ${file}`);
      const client = new Parley({ baseUrl: result.running!.url, token: 'parley-demo-token', maxRetries: 0 });
      const transcript = await converse(client);
      expect(transcript.finalTexts[1]).toBe('Sorry, I could not find Oslo.');
      const { sessionId } = await client.sessions.create();
      const error = await client.messages.send(sessionId, { content: 'Hello' }).catch((e: unknown) => e);
      expect(
        (error instanceof InternalServerError || error instanceof StreamError) &&
          error.code === 'replay_mismatch',
      ).toBe(true);
      expect((error as Error).message).toContain(`cassette ${file}, no recorded session`);
    } finally {
      await result.running?.close();
    }
  });

  it('PARLEY_REPLAY_FILE and PARLEY_REPLAY_ON_MISMATCH=stand-in replay and fall back to the stand-in model', async () => {
    const file = await cassetteFile();
    const { io: streams } = io();
    const result = await runCli(['--port', '0'], streams, {
      env: { PARLEY_REPLAY_FILE: file, PARLEY_REPLAY_ON_MISMATCH: 'stand-in' },
    });
    try {
      const client = new Parley({ baseUrl: result.running!.url, token: 'parley-demo-token', maxRetries: 0 });
      const { sessionId } = await client.sessions.create();
      const reply = await client.messages.send(sessionId, { content: 'Hello' });
      expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'You said: Hello' }]);
    } finally {
      await result.running?.close();
    }
  });

  it('--record without --upstream exits 2 saying what is missing', async () => {
    const { err, io: streams } = io();
    const result = await runCli(['--port', '0', '--record', 'run.json'], streams);
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toBe(
      'parley-server: --record run.json needs --upstream <url> (PARLEY_UPSTREAM_URL): recording writes what passes through the checking proxy\n',
    );
  });

  it('a missing or invalid cassette, a bad --replay-pace and --replay with --script exit 2 naming the problem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-cli-'));
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"format":"parley-cassette","version":3,"sessions":[]}');
    const cases: Array<[string[], RegExp]> = [
      [['--replay', join(dir, 'missing.json')], /--replay .*missing\.json: Invalid cassette .*ENOENT/],
      [['--replay', bad], /version 3 is not supported; this server reads versions 1 and 2/],
      [['--replay', bad, '--replay-pace', 'slow'], /--replay-pace.*must be one of fast, recorded/],
      [['--replay', bad, '--script', 'x.json'], /either --script or --replay/],
      [['--replay', bad, '--record', 'out.json'], /either --replay or --record/],
    ];
    for (const [argv, message] of cases) {
      const { err, io: streams } = io();
      const result = await runCli(['--port', '0', ...argv], streams);
      expect(result.exitCode).toBe(2);
      expect(err.join('')).toMatch(message);
    }
  });
});
