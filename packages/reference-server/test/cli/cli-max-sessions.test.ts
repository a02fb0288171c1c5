import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

const create = (url: string) =>
  fetch(`${url}/v1/sessions`, { method: 'POST', headers: { authorization: 'Bearer parley-demo-token' } });

describe('parley-server --max-sessions', () => {
  it('--max-sessions (PARLEY_MAX_SESSIONS) bounds the sessions: the next create is 503 session_limit_reached', async () => {
    for (const [argv, env] of [
      [['--port', '0', '--max-sessions', '1'], {}],
      [['--port', '0'], { PARLEY_MAX_SESSIONS: '1' }],
    ] as const) {
      const s = streams();
      const result = await runCli(argv, s.io, { env });
      try {
        const url = result.running?.url as string;
        expect((await create(url)).status).toBe(201);
        const refused = await create(url);
        expect(refused.status).toBe(503);
        expect((await refused.json()).error.code).toBe('session_limit_reached');
      } finally {
        await result.running?.close();
      }
    }
  });

  it('a --max-sessions that is not a positive integer exits 2 naming the flag', async () => {
    const s = streams();
    const result = await runCli(['--max-sessions', '0'], s.io, { env: {} });
    expect(result.exitCode).toBe(2);
    expect(s.err.join('')).toMatch(
      /option '--max-sessions <n>' argument '0' is invalid\. must be a positive integer/,
    );
  });
});
