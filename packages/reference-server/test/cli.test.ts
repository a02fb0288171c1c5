import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

describe('parley-server CLI', () => {
  it('with --port 0 it listens and prints one line with http://HOST:PORT and the demo token', async () => {
    const { out, io: streams } = io();
    const result = await runCli(['--port', '0'], streams);
    try {
      expect(out).toHaveLength(1);
      const url = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out[0] ?? '')?.[0];
      expect(url).toBeDefined();
      expect(out[0]).toContain('parley-demo-token');
      const res = await fetch(`${url}/v1/sessions`, {
        headers: { authorization: 'Bearer parley-demo-token' },
      });
      expect(res.status).toBe(200);
    } finally {
      await result.running?.close();
    }
  });

  it('--user NAME:TOKEN (repeatable) replaces the demo user and --heartbeat-timeout-ms is applied', async () => {
    const { out, io: streams } = io();
    const result = await runCli(
      [
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--user',
        'alice:a-token',
        '--user',
        'bob:b-token',
        '--heartbeat-timeout-ms',
        '500',
      ],
      streams,
    );
    try {
      const url = result.running?.url ?? '';
      expect(out.join('')).toContain(url);
      expect(out.join('')).not.toContain('parley-demo-token');
      expect(result.running?.server.heartbeatTimeoutMs).toBe(500);
      expect(
        (await fetch(`${url}/v1/sessions`, { headers: { authorization: 'Bearer b-token' } })).status,
      ).toBe(200);
      expect(
        (await fetch(`${url}/v1/sessions`, { headers: { authorization: 'Bearer parley-demo-token' } }))
          .status,
      ).toBe(401);
    } finally {
      await result.running?.close();
    }
  });

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--user', 'no-colon']],
    [['--heartbeat-timeout-ms', '0']],
    [['--bogus']],
  ])('invalid flags %j print a clear message and give exit code 2', async (argv) => {
    const { err, io: streams } = io();
    const result = await runCli(argv, streams);
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toMatch(/error/i);
  });

  it('--help prints every flag and exits 0', async () => {
    const { out, io: streams } = io();
    const result = await runCli(['--help'], streams);
    expect(result.exitCode).toBe(0);
    for (const flag of ['--port', '--host', '--user', '--heartbeat-timeout-ms', '--help'])
      expect(out.join('')).toContain(flag);
  });
});
