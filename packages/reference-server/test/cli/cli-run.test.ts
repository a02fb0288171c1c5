import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answer, startScriptedUpstream } from '../proxy/helpers.js';

// `parley-server` from source, started the way CI starts it: from a non-interactive bash.
const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const CLI = `"${process.execPath}" --conditions=@parley/source --import tsx src/cli.ts`;
const NODE = `"${process.execPath}"`;

interface Shell {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout has a line matching `pattern` (rejects if the shell's output ends first). */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves when every process holding the shell's stdout has exited (bash and what it left behind). */
  closed: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function bash(script: string, env: Record<string, string> = {}): Shell {
  const child = spawn('bash', ['-c', script], {
    cwd: packageDir,
    env: { ...process.env, PORT: '', HOST: '', PARLEY_USERS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const closed = once(child.stdout as NodeJS.ReadableStream, 'close').then(() => undefined);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const line = async (pattern: RegExp) => {
    for (;;) {
      const match = pattern.exec(out);
      if (match !== null) return match;
      const ended = await Promise.race([
        closed.then(() => true),
        once(child.stdout as NodeJS.ReadableStream, 'data').then(() => false),
      ]);
      if (ended && pattern.exec(out) === null) throw new Error(`no line ${pattern} in:\n${out}\n${err}`);
    }
  };
  return { child, stdout: () => out, stderr: () => err, line, closed, exited };
}

/** Whether `pid` runs: a zombie (ended, left for an init that may never reap it) does not. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = process.platform === 'linux' ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0] ?? '');
  } catch {
    return false;
  }
}

// A command that creates a session on the server it was handed, reports it, then waits or exits
// (what it does next is set up before the report: a test signals it once the report is out).
const command = (then: string) =>
  `${NODE} --input-type=module -e '
    const r = await fetch(process.env.PARLEY_BASE_URL + "/v1/sessions", {
      method: "POST", headers: { authorization: "Bearer " + process.env.PARLEY_TOKEN } });
    setImmediate(() => console.log("created " + r.status));
    ${then}'`;

describe('parley-server run -- <command>', () => {
  it('runs the command against the server with PARLEY_BASE_URL, PARLEY_TOKEN and PARLEY_CONTROL_TOKEN, stops the server and exits with the command’s status', async () => {
    const shell = bash(
      `${CLI} run --port 0 --control --user alice:alice-token -- ${command('console.log([process.env.PARLEY_BASE_URL, process.env.PARLEY_TOKEN, process.env.PARLEY_CONTROL_TOKEN].join(" ")); setImmediate(() => setImmediate(() => process.exit(3)))')}`,
    );
    expect(await shell.exited).toEqual({ code: 3, signal: null });
    expect(shell.stdout()).toMatch(/^http:\/\/127\.0\.0\.1:\d+ alice-token pct_[0-9a-f]{32}\ncreated 201\n$/);
    expect(shell.stderr()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(shell.stderr()).toContain('Parley reference server stopped (the command exited with 3)');
  }, 60_000);

  it('SIGINT delivered twice at once (terminal and package manager) counts once: the command’s whole group ends, nothing outlives run, status 130', async () => {
    // A background job of a non-interactive shell, as in CI; the command is a shell whose child
    // (`sleep`) ignores SIGINT, as a non-interactive shell's jobs do.
    const shell = bash(
      `${CLI} run --port 0 -- sh -c 'sleep 300 & echo "sleep $!"; exec ${command('setInterval(() => {}, 1000)').replaceAll("'", `'"'"'`)}' & echo "pid $!"; wait $!; echo "status $?"`,
    );
    const [, pid] = await shell.line(/pid (\d+)/);
    const [, sleep] = await shell.line(/sleep (\d+)/);
    await shell.line(/created 201/);
    process.kill(Number(pid), 'SIGINT');
    process.kill(Number(pid), 'SIGINT');
    await shell.closed;
    expect(shell.stdout()).toContain('status 130');
    expect(shell.stderr()).toContain('Parley reference server stopped (SIGINT, the command exited with 130)');
    expect(running(Number(sleep))).toBe(false);
  }, 60_000);

  it('--fail-on-violation: the command passed, the upstream broke the protocol, exit 1 and the report written', async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 201, '{"id":"sess_1"}'));
    const report = join(mkdtempSync(join(tmpdir(), 'parley-run-')), 'proxy.json');
    const shell = bash(
      `${CLI} run --port 0 --upstream ${upstream.url} --fail-on-violation --report ${report} -- ${command('')}`,
    );
    expect(await shell.exited).toEqual({ code: 1, signal: null });
    expect(shell.stdout()).toBe('created 201\n');
    expect(shell.stderr()).toContain('(--fail-on-violation: exit code 1)');
    expect(JSON.parse(readFileSync(report, 'utf8')).violations).toBe(1);
  }, 60_000);

  it('a command that cannot start is status 127; no command at all is a usage error (2)', async () => {
    const missing = bash(`${CLI} run --port 0 -- parley-no-such-command-here`);
    expect(await missing.exited).toEqual({ code: 127, signal: null });
    expect(missing.stderr()).toContain('parley-server run: cannot run parley-no-such-command-here');
    const none = bash(`${CLI} run --port 0`);
    expect(await none.exited).toEqual({ code: 2, signal: null });
    expect(none.stderr()).toContain("missing required argument 'command'");
  }, 60_000);
});

describe('the plain server started through a package manager', () => {
  it('stops when its launcher dies without passing the signal on (npx killed with SIGTERM)', async () => {
    // As `npx parley-server &`: npm and its `sh -c` die, the server is adopted and keeps serving.
    const shell = bash(`${CLI} --port 0 & echo "pid $!"; wait`, { npm_command: 'exec' });
    await shell.line(/pid (\d+)/);
    await shell.line(/listening on/);
    shell.child.kill('SIGKILL');
    await shell.closed;
    expect(shell.stdout()).toContain('Parley reference server stopped (SIGTERM)');
  }, 60_000);

  it('parley-server run stops its command and the server when its launcher dies', async () => {
    const shell = bash(
      `${CLI} run --port 0 -- ${command('setInterval(() => {}, 1000)')} & echo "pid $!"; wait`,
      {
        npm_command: 'exec',
      },
    );
    await shell.line(/pid (\d+)/);
    await shell.line(/created 201/);
    shell.child.kill('SIGKILL');
    await shell.closed;
    expect(shell.stderr()).toContain(
      'Parley reference server stopped (SIGTERM, the command exited with 143)',
    );
  }, 60_000);
});
