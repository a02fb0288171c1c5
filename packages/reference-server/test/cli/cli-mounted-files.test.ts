import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliEnv, runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

// What a container is configured with: variables and mounted files (docs/containers.md).

async function run(argv: string[], env: CliEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
  const result = await runCli(['--port', '0', ...argv], io, { env });
  return { result, out: out.join(''), err: err.join('') };
}

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-mounted-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('parley-server configured by variables and mounted files', () => {
  it('PARLEY_USERS_FILE adds the users of a NAME:TOKEN file (comments skipped) to PARLEY_USERS, printing no token', async () => {
    const dir = await folder({ users: '# the team\nalice:a-token-1\nbob:b-token-2, carol:c-token-3 # ci\n' });
    const { result, out } = await run([], {
      PARLEY_USERS: 'dave:d-token',
      PARLEY_USERS_FILE: join(dir, 'users'),
    });
    try {
      expect(result.running?.server.users.map((u) => u.name)).toEqual(['dave', 'alice', 'bob', 'carol']);
      expect(out).toContain('users: dave, alice, bob, carol');
      expect(out).not.toMatch(/token-/);
      const res = await fetch(`${result.running?.url}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: 'Bearer c-token-3' },
      });
      expect(res.status).toBe(201);
    } finally {
      await result.running?.close();
    }
  });

  it('a missing users file exits 2 naming the flag and the file', async () => {
    const { result, err } = await run([], { PARLEY_USERS_FILE: '/run/secrets/parley-users' });
    expect(result.exitCode).toBe(2);
    expect(err).toMatch(/^parley-server: --users-file \/run\/secrets\/parley-users: ENOENT/);
  });

  it('a bad users file exits 2 naming the line, never the entry (it holds a token)', async () => {
    const dir = await folder({ users: 'alice:ok-token\nbob secret-token-xyz\n', empty: '# nobody\n' });
    const bad = await run(['--users-file', join(dir, 'users')], {});
    expect(bad.result.exitCode).toBe(2);
    expect(bad.err).toContain('line 2: an entry is not NAME:TOKEN');
    expect(bad.err).not.toContain('secret-token-xyz');
    const empty = await run(['--users-file', join(dir, 'empty')], {});
    expect(empty.result.exitCode).toBe(2);
    expect(empty.err).toContain('holds no NAME:TOKEN entry');
  });

  it('PARLEY_SCRIPT_FILE and PARLEY_CONTROL=1 set the script and the control routes as --script and --control do', async () => {
    const dir = await folder({
      'script.json': JSON.stringify({ turns: [{ text: 'From the mounted script.' }] }),
    });
    const { result, out } = await run([], {
      PARLEY_SCRIPT_FILE: join(dir, 'script.json'),
      PARLEY_CONTROL: '1',
      PARLEY_CONTROL_TOKEN: 'a-control-token-of-16+',
    });
    try {
      expect(out).toContain('control routes:');
      const url = result.running?.url;
      const auth = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };
      const { sessionId } = (await (
        await fetch(`${url}/v1/sessions`, { method: 'POST', headers: auth })
      ).json()) as {
        sessionId: string;
      };
      const reply = await fetch(`${url}/v1/messages/${sessionId}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ content: 'Hi' }),
      });
      expect(JSON.stringify(await reply.json())).toContain('From the mounted script.');
      const health = await fetch(`${url}/_parley/health`, {
        headers: { 'x-parley-control-token': 'a-control-token-of-16+' },
      });
      expect(health.status).toBe(200);
    } finally {
      await result.running?.close();
    }
  });

  it.each([['0'], ['false'], ['off']])('PARLEY_CONTROL=%s leaves the control routes off', async (value) => {
    const { result, out } = await run([], { PARLEY_CONTROL: value });
    await result.running?.close();
    expect(out).toContain('journal and control routes: off');
  });

  it('a PARLEY_CONTROL that is not a switch exits 2 naming the variable', async () => {
    const { result, err } = await run([], { PARLEY_CONTROL: 'maybe' });
    expect(result.exitCode).toBe(2);
    expect(err).toContain("environment variable PARLEY_CONTROL value 'maybe' is invalid. must be 1, true");
  });

  it('--record into a folder that does not exist exits 2 at start, not after the run', async () => {
    const { result, err } = await run(
      ['--upstream', 'http://127.0.0.1:9', '--record', '/no/such/dir/c.json'],
      {},
    );
    expect(result.exitCode).toBe(2);
    expect(err).toContain(
      'parley-server: --record /no/such/dir/c.json: the folder /no/such/dir does not exist',
    );
  });
});
