import { type CliEnv, runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';
import { answer, send, startScriptedUpstream, startUpstream } from './helpers.js';

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

async function start(argv: string[], env: CliEnv = {}) {
  const s = streams();
  const result = await runCli(['--port', '0', ...argv], s.io, { env });
  return { ...s, result };
}

describe('parley-server as a checking proxy', () => {
  it('--help lists --upstream, --upstream-token and --upstream-timeout-ms with their variables', async () => {
    const s = streams();
    const result = await runCli(['--help'], s.io, { env: {} });
    expect(result.exitCode).toBe(0);
    const text = s.out.join('').replace(/\s+/g, ' ');
    for (const [flag, variable] of [
      ['--upstream <url>', 'env: PARLEY_UPSTREAM_URL'],
      ['--upstream-token <token>', 'env: PARLEY_UPSTREAM_TOKEN'],
      ['--upstream-timeout-ms <ms>', 'env: PARLEY_UPSTREAM_TIMEOUT_MS'],
    ]) {
      expect(text).toContain(flag);
      expect(text).toContain(variable);
    }
  });

  it('--upstream proxies /v1 there, and the start line names the upstream', async () => {
    const upstream = await startUpstream();
    const { out, result } = await start(['--upstream', upstream.url, '--control']);
    try {
      expect(out.join('')).toContain(`checking proxy to ${upstream.url} (clients' tokens pass through)`);
      expect(out.join('')).toContain('/_parley/proxy/report');
      const created = await send(`${result.running?.url}/v1/sessions`, 'POST', {});
      expect(created.status).toBe(201);
      expect(upstream.server.sessionCount).toBe(1);
    } finally {
      await result.running?.close();
    }
  });

  it('PARLEY_UPSTREAM_URL and PARLEY_UPSTREAM_TOKEN configure it; the token is never printed; violations go to stderr', async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 201, '{}'));
    const { out, err, result } = await start([], {
      PARLEY_UPSTREAM_URL: `${upstream.url}/`,
      PARLEY_UPSTREAM_TOKEN: 'secret-upstream-token',
    });
    try {
      expect(out.join('')).toContain(
        `checking proxy to ${upstream.url} (local tokens replaced by the upstream token)`,
      );
      await send(`${result.running?.url}/v1/sessions`, 'POST', {});
      expect(upstream.requests[0]?.headers.authorization).toBe('Bearer secret-upstream-token');
      expect(err.join('')).toMatch(
        /protocol violation in the response of POST \/v1\/sessions.*sessionId: expected string, got nothing\n/,
      );
    } finally {
      await result.running?.close();
    }
    expect(err.join('')).toContain(
      `[parley] proxy report: 1 requests to ${upstream.url}, 1 protocol violations`,
    );
    expect(out.join('') + err.join('')).not.toContain('secret-upstream-token');
  });

  it.each([
    [['--upstream', 'ftp://example.com'], /--upstream <url>' argument 'ftp:\/\/example.com' is invalid/],
    [['--upstream', 'not a url'], /--upstream <url>' argument 'not a url' is invalid/],
    [['--upstream', 'http://a.test', '--upstream-token', 'has space'], /--upstream-token <token>' argument/],
    [['--upstream-token', 'abc'], /--upstream-token \(PARLEY_UPSTREAM_TOKEN\) needs --upstream/],
  ])('a bad upstream setting %j exits 2 with a message naming it', async (argv, message) => {
    const { err, result } = await start(argv);
    await result.running?.close();
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toMatch(message);
  });
});
