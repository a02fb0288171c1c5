import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answer, startScriptedUpstream } from '../proxy/helpers.js';

// The `parley-server` command as a real process, run from source (tsx, the @parley/source condition).
const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal that killed it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startCli(args: string[]): Cli {
  const child = spawn(
    process.execPath,
    ['--conditions=@parley/source', '--import', 'tsx', 'src/cli.ts', ...args],
    {
      cwd: packageDir,
      env: {
        ...process.env,
        PORT: '',
        HOST: '',
        PARLEY_USERS: '',
        PARLEY_HEARTBEAT_TIMEOUT_MS: '',
        PARLEY_TOOL_CALL_TIMEOUT_MS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for the listening line and returns the server's URL. */
async function listening(cli: Cli): Promise<string> {
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(cli.stdout())?.[1];
    if (url !== undefined) return url;
    const ended = await Promise.race([
      cli.exited.then(() => true),
      new Promise<false>((resolve) => cli.child.stdout?.once('data', () => resolve(false))),
    ]);
    if (ended) throw new Error(`the CLI exited before listening: ${cli.stderr()}`);
  }
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('the parley-server process', () => {
  it('--version prints the package version and exits 0', async () => {
    const cli = startCli(['--version']);
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toBe(`${version}\n`);
  }, 60_000);

  it('a bad flag exits with code 2 and a message naming it', async () => {
    const cli = startCli(['--port', 'abc']);
    expect(await cli.exited).toEqual({ code: 2, signal: null });
    expect(cli.stderr()).toContain("option '--port <port>' argument 'abc' is invalid");
  }, 60_000);

  it('SIGTERM ends an open stream, prints one line and exits 0', async () => {
    const cli = startCli(['--port', '0']);
    const url = await listening(cli);
    const headers = { authorization: 'Bearer parley-demo-token' };
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const created = await fetch(`${url}/v1/sessions`, { method: 'POST', headers });
    const { sessionId } = (await created.json()) as { sessionId: string };
    // A slow stream: one word every 10 s, so it is still open when the signal comes.
    const stream = await fetch(`${url}/v1/messages/${sessionId}/stream`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: '/say one two three four\n/delay 10000' }),
    });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    const first = await reader?.read();
    expect(first?.done).toBe(false);
    const streamEnded = (async () => {
      try {
        while (!(await reader?.read())?.done);
        return 'ended';
      } catch {
        return 'cut';
      }
    })();

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(['ended', 'cut']).toContain(await streamEnded);
    expect(lines(cli.stdout())).toEqual([
      expect.stringContaining(`listening on ${url}`),
      '  journal and control routes: off (start with --control to inspect requests)',
      'Parley reference server stopped (SIGTERM)',
    ]);
    expect(cli.stderr()).toBe('');
  }, 60_000);

  it('SIGINT (Ctrl+C) prints one line and exits 0', async () => {
    const cli = startCli(['--port', '0']);
    await listening(cli);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(lines(cli.stdout()).slice(2)).toEqual(['Parley reference server stopped (SIGINT)']);
    expect(cli.stderr()).toBe('');
  }, 60_000);

  it('--fail-on-violation: stopped after the deployment broke the protocol, the process exits 1', async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 201, '{"id":"sess_1"}'));
    const cli = startCli(['--port', '0', '--upstream', upstream.url, '--fail-on-violation']);
    const url = await listening(cli);
    const created = await fetch(`${url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token' },
    });
    expect(created.status).toBe(201);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toEqual({ code: 1, signal: null });
    expect(lines(cli.stdout()).at(-1)).toBe('Parley reference server stopped (SIGINT)');
    expect(cli.stderr()).toContain('broke the protocol: 1 violation in 1 of 1 request');
    expect(cli.stderr()).toContain('(--fail-on-violation: exit code 1)');
  }, 60_000);
});
