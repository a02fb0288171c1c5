import { request } from 'node:http';
import { CONTROL_TOKEN_HEADER, ManualClock, startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from '../helpers/api.js';

const TOKEN = 'right-control-token-0001';
const WRONG = 'wrong-control-token-0001';

describe('repeated wrong control tokens lock the client out for a while', () => {
  it('after 10 wrong tokens in a row, even the right one is 429 until the lock-out passes', async () => {
    const clock = new ManualClock(1_000_000);
    const h = harness({ control: true, controlToken: TOKEN, clock });
    const health = (token: string) => h.call('GET', '/_parley/health', undefined, { controlToken: token });

    for (let i = 0; i < 10; i++) expectError(await health(WRONG), 401, 'invalid_control_token');
    // Locked: the token is not even compared, so a right guess would tell the guesser nothing.
    const locked = await health(TOKEN);
    const error = expectError(locked, 429, 'control_token_locked');
    expect(error).toEqual({
      code: 'control_token_locked',
      message: 'Too many wrong control tokens from this client: try again in 1 s',
      details: { retryAfterSeconds: 1 },
    });
    expect(locked.headers.get('retry-after')).toBe('1');

    await h.clock.advance(999);
    expect((await health(TOKEN)).status).toBe(429);
    await h.clock.advance(1);
    expect((await health(TOKEN)).status).toBe(200);
    // The right token cleared the record: ten more wrong ones before the next lock-out.
    for (let i = 0; i < 10; i++) expectError(await health(WRONG), 401, 'invalid_control_token');
    expect((await health(TOKEN)).status).toBe(429);
    // A full reset from code forgets the lock-outs too.
    h.server.reset();
    expect((await health(TOKEN)).status).toBe(200);
  });

  it('each wrong token after a lock-out locks again, twice as long, up to 60 s', async () => {
    const clock = new ManualClock(1_000_000);
    const h = harness({ control: true, controlToken: TOKEN, clock });
    const health = (token: string) => h.call('GET', '/_parley/health', undefined, { controlToken: token });
    for (let i = 0; i < 10; i++) await health(WRONG);

    const lockouts: string[] = [];
    for (let round = 0; round < 8; round++) {
      const locked = await health(WRONG);
      expect(locked.status).toBe(429);
      const seconds = locked.headers.get('retry-after') ?? '';
      lockouts.push(seconds);
      await h.clock.advance(Number(seconds) * 1000);
      expectError(await health(WRONG), 401, 'invalid_control_token'); // compared again, and wrong
    }
    expect(lockouts).toEqual(['1', '2', '4', '8', '16', '32', '60', '60']);
  });

  it('a wrong control token sent with a fault counts as a guess too, and a locked client gets no fault', async () => {
    const clock = new ManualClock(1_000_000);
    const h = harness({ control: true, controlToken: TOKEN, clock });
    // Without a bearer token, a fault applies only with the right control token: an oracle to close.
    const faulted = (token: string) =>
      h.call('POST', '/v1/sessions', undefined, {
        token: null,
        headers: { [CONTROL_TOKEN_HEADER]: token, 'x-parley-fault': 'status=503' },
      });
    expect((await faulted(TOKEN)).status).toBe(503);
    for (let i = 0; i < 10; i++) expectError(await faulted(WRONG), 401, 'unauthorized');
    // Locked out: the right token no longer lets the fault through.
    expectError(await faulted(TOKEN), 401, 'unauthorized');
    expectError(
      await h.call('GET', '/_parley/health', undefined, { controlToken: TOKEN }),
      429,
      'control_token_locked',
    );
  });

  it('over a socket the lock-out is per client address: another client is not locked out', async () => {
    const clock = new ManualClock(1_000_000);
    const running = await startServer({ port: 0, control: true, controlToken: TOKEN, clock });
    const status = (localAddress: string, token: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: running.port,
            path: '/_parley/health',
            localAddress,
            headers: { [CONTROL_TOKEN_HEADER]: token },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      for (let i = 0; i < 10; i++) expect(await status('127.0.0.2', WRONG)).toBe(401);
      expect(await status('127.0.0.2', TOKEN)).toBe(429);
      expect(await status('127.0.0.1', TOKEN)).toBe(200);
    } finally {
      await running.close();
    }
  });
});
