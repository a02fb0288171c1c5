import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliEnv, runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

/** Runs the CLI with this environment (and no other), closing the server it starts. */
async function run(argv: string[], env: CliEnv, cwd?: string) {
  const s = streams();
  const result = await runCli(argv, s.io, { env, ...(cwd === undefined ? {} : { cwd }) });
  await result.running?.close();
  return { ...s, result };
}

describe('parley-server configuration from the environment', () => {
  it('PORT, HOST, PARLEY_USERS and both timeouts configure the server when no flag is given', async () => {
    const s = streams();
    const result = await runCli([], s.io, {
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        PARLEY_USERS: 'alice:a-token, bob:b-token',
        PARLEY_HEARTBEAT_TIMEOUT_MS: '700',
        PARLEY_TOOL_CALL_TIMEOUT_MS: '90000',
      },
    });
    try {
      const running = result.running;
      expect(running).toBeDefined();
      expect(running?.port).not.toBe(4010);
      expect(running?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(running?.server.users).toEqual([
        { name: 'alice', token: 'a-token' },
        { name: 'bob', token: 'b-token' },
      ]);
      expect(running?.server.heartbeatTimeoutMs).toBe(700);
      expect(running?.server.toolCallTimeoutMs).toBe(90_000);
      expect(s.out.join('')).toContain('users: alice, bob');
      expect(s.out.join('')).not.toContain('a-token');
      const res = await fetch(`${running?.url}/v1/sessions`, {
        headers: { authorization: 'Bearer b-token' },
      });
      expect(res.status).toBe(200);
    } finally {
      await result.running?.close();
    }
  });

  it('flags win over the environment', async () => {
    const s = streams();
    const result = await runCli(
      [
        '--port',
        '0',
        '--user',
        'carol:c-token',
        '--heartbeat-timeout-ms',
        '800',
        '--tool-call-timeout-ms',
        '1000',
      ],
      s.io,
      {
        env: {
          PORT: '1',
          PARLEY_USERS: 'alice:a-token',
          PARLEY_HEARTBEAT_TIMEOUT_MS: '700',
          PARLEY_TOOL_CALL_TIMEOUT_MS: '90000',
        },
      },
    );
    try {
      expect(result.exitCode).toBeUndefined();
      expect(result.running?.server.users).toEqual([{ name: 'carol', token: 'c-token' }]);
      expect(result.running?.server.heartbeatTimeoutMs).toBe(800);
      expect(result.running?.server.toolCallTimeoutMs).toBe(1000);
    } finally {
      await result.running?.close();
    }
  });

  it('without flags or variables the defaults hold, and an empty variable counts as unset', async () => {
    const { result } = await run(['--port', '0'], { PARLEY_USERS: '', PARLEY_TOOL_CALL_TIMEOUT_MS: ' ' });
    expect(result.running?.server.users).toEqual([{ name: 'demo', token: 'parley-demo-token' }]);
    expect(result.running?.server.heartbeatTimeoutMs).toBe(15_000);
    expect(result.running?.server.toolCallTimeoutMs).toBe(600_000);
  });

  it.each([
    ['PORT', 'abc', /environment variable PORT value 'abc' is invalid\. must be an integer from 0 to 65535/],
    ['PORT', '70000', /environment variable PORT value '70000' is invalid/],
    [
      'PARLEY_HEARTBEAT_TIMEOUT_MS',
      '-5',
      /PARLEY_HEARTBEAT_TIMEOUT_MS value '-5' is invalid\. must be a positive integer/,
    ],
    ['PARLEY_TOOL_CALL_TIMEOUT_MS', '1.5', /PARLEY_TOOL_CALL_TIMEOUT_MS value '1\.5' is invalid/],
    ['PARLEY_TOOL_CALL_TIMEOUT_MS', '0', /PARLEY_TOOL_CALL_TIMEOUT_MS value '0' is invalid/],
    [
      'PARLEY_USERS',
      'alice:ok,no-colon',
      /environment variable PARLEY_USERS is invalid\. "no-colon" must be NAME:TOKEN/,
    ],
  ])('a bad %s=%j exits 2 with a message naming the variable', async (name, value, message) => {
    const { result, err } = await run([], { [name]: value });
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toMatch(message);
  });

  it('a bad PARLEY_USERS does not print the tokens it holds', async () => {
    const { result, err } = await run([], { PARLEY_USERS: 'alice:secret-token bad' });
    expect(result.exitCode).toBe(2);
    expect(err.join('')).not.toContain('secret-token');
  });

  it.each([
    [['--port', 'abc'], /option '--port <port>' argument 'abc' is invalid/],
    [['--heartbeat-timeout-ms', '-5'], /option '--heartbeat-timeout-ms <ms>' argument '-5' is invalid/],
    [['--tool-call-timeout-ms', '-1'], /option '--tool-call-timeout-ms <ms>' argument '-1' is invalid/],
    [['--tool-call-timeout-ms', 'soon'], /option '--tool-call-timeout-ms <ms>' argument 'soon' is invalid/],
  ])('a bad flag %j exits 2 with a message naming the flag', async (argv, message) => {
    const { result, err } = await run(argv, {});
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toMatch(message);
  });

  it('--help lists every flag with its variable, and --version prints the version given', async () => {
    const help = await run(['--help'], {}, undefined);
    expect(help.result.exitCode).toBe(0);
    const text = help.out.join('').replace(/\s+/g, ' ');
    for (const [flag, variable] of [
      ['--port', 'env: PORT'],
      ['--host', 'env: HOST'],
      ['--user', 'env: PARLEY_USERS'],
      ['--heartbeat-timeout-ms', 'env: PARLEY_HEARTBEAT_TIMEOUT_MS'],
      ['--tool-call-timeout-ms', 'env: PARLEY_TOOL_CALL_TIMEOUT_MS'],
    ]) {
      expect(text).toContain(flag);
      expect(text).toContain(variable);
    }
    expect(text).toContain('/healthz');

    const s = streams();
    const version = await runCli(['--version'], s.io, { env: {}, version: '9.8.7' });
    expect(version.exitCode).toBe(0);
    expect(s.out.join('')).toBe('9.8.7\n');
  });
});

describe('parley-server file paths relative to where the user stands', () => {
  /** A user's directory holding a script, a config with its documents, and another documents file. */
  async function userDirectory(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'parley-cwd-'));
    await mkdir(join(dir, 'data'));
    const doc = (id: string) => `${JSON.stringify({ id, text: `About ${id}.` })}\n`;
    await writeFile(join(dir, 'data', 'faq.jsonl'), doc('faq-1'));
    await writeFile(join(dir, 'data', 'more.jsonl'), doc('more-1'));
    await writeFile(
      join(dir, 'data', 'config.json'),
      JSON.stringify({ indexes: { faq: { file: 'faq.jsonl' } } }),
    );
    await writeFile(join(dir, 'script.json'), JSON.stringify({ turns: [{ text: 'From the script.' }] }));
    return dir;
  }
  const argv = ['--port', '0', '--script', 'script.json', '--config', 'data/config.json'];

  it('resolves --script, --config and --documents against INIT_CWD (set by npm and pnpm)', async () => {
    const dir = await userDirectory();
    const elsewhere = await mkdtemp(join(tmpdir(), 'parley-elsewhere-'));
    const { result, out, err } = await run(
      [...argv, '--documents', 'more=data/more.jsonl'],
      { INIT_CWD: dir },
      elsewhere,
    );
    expect(err.join('')).toBe('');
    expect(result.running?.server.extensions?.retriever.names).toEqual(
      expect.arrayContaining(['faq', 'more']),
    );
    expect(out.join('')).toContain('  script:         script.json\n');
  });

  it('without INIT_CWD, resolves them against the current directory', async () => {
    const dir = await userDirectory();
    const { result, err } = await run([...argv, '--documents', 'more=data/more.jsonl'], {}, dir);
    expect(err.join('')).toBe('');
    expect(result.running?.server.extensions?.retriever.names).toEqual(
      expect.arrayContaining(['faq', 'more']),
    );
  });

  it('a relative path missing there is exit code 2 with the path it looked at', async () => {
    const dir = await userDirectory();
    const { result, err } = await run(['--port', '0', '--script', 'nope.json'], { INIT_CWD: dir });
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toContain('--script nope.json');
    expect(err.join('')).toContain(join(dir, 'nope.json'));
  });
});
