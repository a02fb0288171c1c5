import { describe, expect, test } from 'vitest';
import { leaseLapses } from '../bench/lease-lapses.js';

// The load bench's count of leases that lapsed (bench/lease-lapses.ts), read from a server journal.
const ok = { status: 200 };
const beat = (time: number, sessionId = 's1') => ({
  time,
  sessionId,
  path: `/v1/tools/request/${sessionId}/call/heartbeat`,
  response: ok,
});
const respond = (time: number, sessionId = 's1') => ({
  time,
  sessionId,
  path: `/v1/tools/response/${sessionId}/call`,
  response: ok,
});
const send = (time: number, sessionId = 's1') => ({
  time,
  sessionId,
  path: `/v1/messages/${sessionId}`,
  response: ok,
});

describe('a lease lapses when the server goes a whole lease without a renewal before the response', () => {
  test('beats closer than the lease: no lapse', () => {
    expect(leaseLapses([beat(0), beat(900), beat(1800), respond(2700)], 1000, false)).toEqual({
      calls: 1,
      lapsed: 0,
      pendingMs: 0,
    });
  });

  test('a gap longer than the lease counts once per call, with the time past the lease', () => {
    const entries = [beat(0), beat(1300), beat(2600), respond(2700)];
    expect(leaseLapses(entries, 1000, false)).toEqual({ calls: 1, lapsed: 1, pendingMs: 600 });
  });

  test('the leased send renews from creation; a plain send does not', () => {
    const entries = [send(0), beat(1500), respond(2000)];
    expect(leaseLapses(entries, 1000, true)).toEqual({ calls: 1, lapsed: 1, pendingMs: 500 });
    expect(leaseLapses(entries, 1000, false)).toEqual({ calls: 1, lapsed: 0, pendingMs: 0 });
  });

  test('a failed beat renews nothing; a call never answered is not counted', () => {
    const failed = { ...beat(900), response: { status: 409 } };
    expect(leaseLapses([beat(0), failed, respond(1500), beat(0, 's2')], 1000, false)).toEqual({
      calls: 1,
      lapsed: 1,
      pendingMs: 500,
    });
  });
});
