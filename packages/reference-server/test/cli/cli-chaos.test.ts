import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';
import { parseChaos } from '../../src/adapters/cli-chaos-option.js';

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

describe('--chaos', () => {
  it('reads every setting', () => {
    expect(
      parseChaos(
        'rate=5%, seed=42,kinds=status+latency+cut-after,status=503+429,retry-after=2,cut-after=4,' +
          'latency=lognormal:200:0.5,method=POST,path=/v1/messages/*/stream',
      ),
    ).toEqual({
      rate: 0.05,
      seed: 42,
      kinds: ['status', 'latency', 'cut-after'],
      status: [503, 429],
      retryAfterSeconds: 2,
      cutAfterEvents: 4,
      latency: { distribution: 'lognormal', medianMs: 200, sigma: 0.5 },
      match: { method: 'POST', path: '/v1/messages/*/stream' },
    });
    expect(parseChaos('rate=0.1,seed=1,latency=250').latency).toEqual({ distribution: 'fixed', ms: 250 });
    expect(parseChaos('rate=0.1,seed=1,latency=uniform:50:500').latency).toEqual({
      distribution: 'uniform',
      minMs: 50,
      maxMs: 500,
    });
  });

  it('a server started with it gives the faults, and the start line says so', async () => {
    const s = streams();
    const result = await runCli(['--port', '0', '--chaos', 'rate=1,seed=7,kinds=status,status=429'], s.io, {
      env: {},
    });
    try {
      expect(s.out.join('')).toContain('chaos:          100% of requests (status), seed 7');
      const res = await fetch(`${result.running?.url}/v1/sessions`, {
        headers: { authorization: 'Bearer parley-demo-token' },
      });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(result.running?.server.journal.last()?.chaos).toEqual({ kind: 'status', seed: 7, n: 0 });
    } finally {
      await result.running?.close();
    }
  });

  it.each([
    ['rate=0.05', /needs rate= and seed=/],
    ['rate=2,seed=1', /rate must be a number from 0 to 1/],
    ['rate=0.1,seed=x', /seed "x" must be an integer/],
    [
      'rate=0.1,seed=1,kinds=status+fire',
      /kinds must list one or more of status, drop, cut-after, malformed, latency, not "fire"/,
    ],
    ['rate=0.1,seed=1,sede=2', /"sede" is not a chaos setting/],
    ['rate=0.1,seed=1,seed=2', /seed is given twice/],
    ['rate=0.1,seed=1,latency=gauss:1:2', /latency "gauss:1:2" must be MS, fixed:MS, uniform/],
    ['rate=0.1,seed=1,latency=uniform:500:50', /latency minMs must be at most maxMs/],
    ['rate=0.1,seed=1,status=200', /status \(status\) must be an integer from 400 to 599/],
  ])(
    'a malformed value "%s" stops the start with exit code 2 and says what is wrong',
    async (value, message) => {
      const s = streams();
      const result = await runCli(['--port', '0', '--chaos', value], s.io, { env: {} });
      await result.running?.close();
      expect(result.exitCode).toBe(2);
      expect(s.err.join('')).toMatch(/option '--chaos <settings>' argument .* is invalid/);
      expect(s.err.join('')).toMatch(message);
    },
  );

  it('PARLEY_CHAOS sets it; a bad one is refused naming the variable', async () => {
    const s = streams();
    const result = await runCli(['--port', '0'], s.io, { env: { PARLEY_CHAOS: 'rate=0.1' } });
    expect(result.exitCode).toBe(2);
    expect(s.err.join('')).toMatch(
      /environment variable PARLEY_CHAOS value 'rate=0.1' is invalid. needs rate= and seed=/,
    );
  });

  it('--help explains the settings, and lists --report and --fail-on-violation', async () => {
    const s = streams();
    expect((await runCli(['--help'], s.io, { env: {} })).exitCode).toBe(0);
    const help = s.out.join('').replace(/\s+/g, ' ');
    expect(help).toContain('--chaos <settings>');
    expect(help).toContain('env: PARLEY_CHAOS');
    expect(help).toContain('latency=MS|uniform:MIN:MAX|lognormal:MEDIAN:SIGMA');
    expect(help).toContain('--report <file>');
    expect(help).toContain('--fail-on-violation');
  });
});
