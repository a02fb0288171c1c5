import { CONTROL_TOKEN_HEADER, FAULT_HEADER } from '@parley/reference-server';
import { runCli } from '@parley/reference-server/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawRequest } from './raw-request.js';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const result = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { result, out: out.join(''), err: err.join('') };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('parley-server security flags', () => {
  it('--control prints a fresh control token and the journal page URL that carries it in its fragment', async () => {
    const { result, out } = await run(['--port', '0', '--control']);
    const running = result.running;
    if (running === undefined) throw new Error(out);
    try {
      const token = running.server.controlToken ?? '';
      expect(token).toMatch(/^pct_[0-9a-f]{32}$/);
      expect(out).toContain(`${CONTROL_TOKEN_HEADER}: ${token}`);
      expect(out).toContain(`journal page:   ${running.url}/_parley/ui/#token=${token}`);
      const page = await fetch(`${running.url}/_parley/ui/`);
      expect(page.status).toBe(200);
      expect((await fetch(`${running.url}/_parley/health`)).status).toBe(401);
      const health = await fetch(`${running.url}/_parley/health`, {
        headers: { [CONTROL_TOKEN_HEADER]: token },
      });
      expect(health.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('--control-token sets the token, PARLEY_CONTROL_TOKEN too (the flag wins)', async () => {
    vi.stubEnv('PARLEY_CONTROL_TOKEN', 'from-env-control-token');
    const fromEnv = await run(['--port', '0', '--control']);
    expect(fromEnv.result.running?.server.controlToken).toBe('from-env-control-token');
    await fromEnv.result.running?.close();
    const fromFlag = await run(['--port', '0', '--control', '--control-token', 'from-flag-control-token']);
    expect(fromFlag.result.running?.server.controlToken).toBe('from-flag-control-token');
    await fromFlag.result.running?.close();
    const bad = await run(['--port', '0', '--control', '--control-token', 'two words in a token']);
    expect(bad.result.exitCode).toBe(2);
    expect(bad.err).toContain('--control-token');
  });

  it('--control-token a is refused: a token shorter than 16 characters, from the flag or the variable', async () => {
    const short = await run(['--port', '0', '--control', '--control-token', 'a']);
    expect(short.result.exitCode).toBe(2);
    expect(short.result.running).toBeUndefined();
    expect(short.err).toContain(
      "error: option '--control-token <token>' argument 'a' is invalid. must be at least 16 characters (got 1): " +
        'a short one is guessed too easily; leave it out for a random one.',
    );
    vi.stubEnv('PARLEY_CONTROL_TOKEN', 'dev-token');
    const fromEnv = await run(['--port', '0', '--control']);
    expect(fromEnv.result.exitCode).toBe(2);
    expect(fromEnv.err).toContain('PARLEY_CONTROL_TOKEN');
    expect(fromEnv.err).toContain('must be at least 16 characters (got 9)');
  });

  it('--allowed-hosts (or PARLEY_ALLOWED_HOSTS) adds host names; others stay refused', async () => {
    vi.stubEnv('PARLEY_ALLOWED_HOSTS', 'from-env.test');
    const { result, out } = await run(['--port', '0', '--allowed-hosts', 'parley.internal,.dev.test']);
    const running = result.running;
    if (running === undefined) throw new Error(out);
    try {
      const status = async (host: string) =>
        (await rawRequest(running.port, '/v1/sessions', { host, authorization: 'Bearer parley-demo-token' }))
          .status;
      expect(await status('parley.internal')).toBe(200);
      expect(await status('api.dev.test')).toBe(200);
      expect(await status('from-env.test')).toBe(403);
      expect(await status('attacker.example')).toBe(403);
    } finally {
      await running.close();
    }
    const any = await run(['--port', '0']);
    try {
      const port = any.result.running?.port ?? 0;
      expect((await rawRequest(port, '/openapi.json', { host: 'from-env.test' })).status).toBe(200);
    } finally {
      await any.result.running?.close();
    }
    expect((await run(['--port', '0', '--allowed-hosts', 'http://x.test'])).result.exitCode).toBe(2);
  });

  it('--no-faults ignores the fault header', async () => {
    const { result, out } = await run(['--port', '0', '--no-faults']);
    const running = result.running;
    if (running === undefined) throw new Error(out);
    try {
      const res = await fetch(`${running.url}/v1/sessions`, {
        headers: { authorization: 'Bearer parley-demo-token', [FAULT_HEADER]: 'status=503' },
      });
      expect(res.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('--cors <origins> allows those origins, --no-cors none, bad origins exit with code 2', async () => {
    const origin = 'http://localhost:5173';
    const allowOrigin = async (argv: string[], from: string) => {
      const { result, out } = await run(['--port', '0', ...argv]);
      if (result.running === undefined) throw new Error(out);
      try {
        const res = await fetch(`${result.running.url}/openapi.json`, { headers: { origin: from } });
        return res.headers.get('access-control-allow-origin');
      } finally {
        await result.running.close();
      }
    };
    expect(await allowOrigin([], origin)).toBe('*');
    expect(await allowOrigin(['--cors', `${origin},https://app.test`], origin)).toBe(origin);
    expect(await allowOrigin(['--cors', 'https://app.test'], origin)).toBeNull();
    expect(await allowOrigin(['--cors', '*'], origin)).toBe('*');
    expect(await allowOrigin(['--no-cors'], origin)).toBeNull();
    expect((await run(['--port', '0', '--cors', 'localhost:5173/x'])).result.exitCode).toBe(2);
  });
});
