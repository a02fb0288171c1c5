import { describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';

async function pendingCall() {
  const h = harness();
  const sessionId = await h.createSession();
  const reply = await h.send(sessionId, '/tool get_weather {"city":"Paris"}');
  const requestId = reply.pendingTools[0]?.requestId ?? '';
  return {
    h,
    heartbeat: `/v1/tools/request/${sessionId}/${requestId}/heartbeat`,
    get: `/v1/tools/request/${sessionId}/${requestId}`,
  };
}

describe('heartbeat timestamp', () => {
  it.each([-5, 1.5, 1e300, '1700000000000', null])(
    'a heartbeat timestamp of %j is not a non-negative integer of milliseconds: 400 naming the field',
    async (heartbeat) => {
      const { h, heartbeat: path, get } = await pendingCall();
      for (const body of [
        { state: 'PROCESSING', heartbeat },
        { state: 'ERROR', error: 'the weather service is down', heartbeat },
      ]) {
        const error = expectError(await h.call('POST', path, body), 400, 'invalid_request');
        expect(error.message).toMatch(
          /^heartbeat: must be a non-negative integer: the caller's Unix time in milliseconds/,
        );
        expect(error.details?.issues).toEqual([
          { path: 'heartbeat', message: expect.stringContaining('milliseconds') },
        ]);
      }
      // Refused before it touches the call: still PENDING, no lease taken.
      expect((await h.call('GET', get)).body).toMatchObject({ state: 'PENDING', lastHeartbeatAt: null });
    },
  );

  it('a heartbeat timestamp of 0 or Date.now() is accepted', async () => {
    const { h, heartbeat: path } = await pendingCall();
    expect((await h.call('POST', path, { state: 'PROCESSING', heartbeat: 0 })).status).toBe(200);
    expect((await h.call('POST', path, { state: 'PROCESSING', heartbeat: Date.now() })).status).toBe(200);
  });
});
