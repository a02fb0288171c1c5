import { request } from 'node:http';
import { CONTROL_TOKEN_HEADER, ManualClock, startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { type ApiResponse, expectError, harness } from '../helpers/api.js';

const TOKEN = 'right-control-token-0001';
const WRONG = 'wrong-control-token-0001';

/** Lets every callback that can run now run (timers excepted): what is answerable is then answered. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A request whose answer the test can look for without awaiting it. */
function pending(promise: Promise<ApiResponse>) {
  const state: { response: ApiResponse | undefined } = { response: undefined };
  const done = promise.then((response) => {
    state.response = response;
    return response;
  });
  return { state, done };
}

function guarded() {
  const clock = new ManualClock(1_000_000);
  const h = harness({ control: true, controlToken: TOKEN, clock });
  const health = (token: string) => h.call('GET', '/_parley/health', undefined, { controlToken: token });
  return { h, clock, health };
}

describe('wrong control tokens are slowed down; the right token is never refused', () => {
  it('after 10 wrong tokens, the right one is still answered at once, also while a wrong one waits', async () => {
    const { clock, health } = guarded();
    for (let i = 0; i < 10; i++) expectError(await health(WRONG), 401, 'invalid_control_token');
    const slowed = pending(health(WRONG));
    // No clock advance: the right token is compared and answered now.
    expect((await health(TOKEN)).status).toBe(200);
    await settle();
    expect(slowed.state.response).toBeUndefined();
    await clock.advance(1_000);
    expectError(await slowed.done, 401, 'invalid_control_token');
    expect((await health(TOKEN)).status).toBe(200);
  });

  it('each wrong token after the tenth waits twice as long as the one before, up to 60 s, never less', async () => {
    const { clock, health } = guarded();
    for (let i = 0; i < 10; i++) await health(WRONG);
    const waits: number[] = [];
    for (let round = 0; round < 8; round++) {
      const guess = pending(health(WRONG));
      let waited = 0;
      while (guess.state.response === undefined) {
        await settle();
        if (guess.state.response !== undefined) break;
        await clock.advance(1_000);
        waited += 1_000;
      }
      expectError(guess.state.response, 401, 'invalid_control_token');
      waits.push(waited / 1_000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
  });

  it('wrong tokens sent at once are answered one after another: parallel guessing is no faster', async () => {
    const { clock, health } = guarded();
    for (let i = 0; i < 10; i++) await health(WRONG);
    const guesses = [pending(health(WRONG)), pending(health(WRONG)), pending(health(WRONG))];
    const answered = () => guesses.filter((g) => g.state.response !== undefined).length;
    await settle();
    // Their waits are 1 s, 2 s and 4 s, each after the one before: answered at 1 s, 3 s and 7 s.
    const at: number[] = [];
    for (let second = 1; second <= 7; second++) {
      await clock.advance(1_000);
      await settle();
      while (at.length < answered()) at.push(second);
    }
    expect(at).toEqual([1, 3, 7]);
    for (const guess of guesses) expectError(await guess.done, 401, 'invalid_control_token');
  });

  it('the count is forgotten after 10 minutes without a wrong token, and by a full reset; not by the right token', async () => {
    const { h, clock, health } = guarded();
    for (let i = 0; i < 10; i++) await health(WRONG);
    // The right token does not clear it: a guesser sharing the test's address gets no fresh start.
    expect((await health(TOKEN)).status).toBe(200);
    const slowed = pending(health(WRONG));
    await settle();
    expect(slowed.state.response).toBeUndefined();
    await clock.advance(1_000);
    await slowed.done;

    await clock.advance(10 * 60_000);
    for (let i = 0; i < 10; i++) expectError(await health(WRONG), 401, 'invalid_control_token');
    expect(pending(health(WRONG)).state.response).toBeUndefined();
    h.server.reset();
    expectError(await health(WRONG), 401, 'invalid_control_token');
  });

  it('closing the server answers the waiting wrong tokens at once (no timer keeps the process alive)', async () => {
    const { h, health } = guarded();
    for (let i = 0; i < 10; i++) await health(WRONG);
    const slowed = pending(health(WRONG));
    await settle();
    expect(slowed.state.response).toBeUndefined();
    await h.server.close();
    expectError(await slowed.done, 401, 'invalid_control_token');
  });

  it('a wrong control token sent with a fault counts as a guess and waits too; the right one still gets its fault', async () => {
    const { clock, health, h } = guarded();
    // Without a bearer token, a fault applies only with the right control token: an oracle to slow.
    const faulted = (token: string) =>
      h.call('POST', '/v1/sessions', undefined, {
        token: null,
        headers: { [CONTROL_TOKEN_HEADER]: token, 'x-parley-fault': 'status=503' },
      });
    for (let i = 0; i < 10; i++) expectError(await faulted(WRONG), 401, 'unauthorized');
    const slowed = pending(faulted(WRONG));
    expect((await faulted(TOKEN)).status).toBe(503);
    await settle();
    expect(slowed.state.response).toBeUndefined();
    await clock.advance(1_000);
    expectError(await slowed.done, 401, 'unauthorized');
    // The control routes count the same guesses.
    const route = pending(health(WRONG));
    await settle();
    expect(route.state.response).toBeUndefined();
    await clock.advance(2_000);
    expectError(await route.done, 401, 'invalid_control_token');
  });

  it('over a socket the count is per client address', async () => {
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
      let waiting: number | undefined;
      const slowed = status('127.0.0.2', WRONG).then((code) => {
        waiting = code;
      });
      expect(await status('127.0.0.2', TOKEN)).toBe(200);
      // Another address is not slowed down.
      expect(await status('127.0.0.1', WRONG)).toBe(401);
      expect(waiting).toBeUndefined();
      await clock.advance(1_000);
      await slowed;
      expect(waiting).toBe(401);
    } finally {
      await running.close();
    }
  });
});
