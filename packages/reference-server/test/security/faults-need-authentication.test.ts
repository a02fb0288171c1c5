import { CONTROL_TOKEN_HEADER, FAULT_HEADER, startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from '../helpers/api.js';
import { stillPending } from '../testing/helpers.js';
import { rawRequest } from './raw-request.js';

describe('faults apply only to requests that may ask for them', () => {
  it('without a valid bearer token the fault header is ignored: no status, no latency, no drop', async () => {
    const h = harness();
    for (const token of [null, 'not-a-user-token']) {
      for (const fault of ['status=503', 'code=quota_exceeded', 'drop', 'explode']) {
        const res = await h.call('GET', '/v1/sessions', undefined, {
          token,
          headers: { [FAULT_HEADER]: fault },
        });
        expectError(res, 401, 'unauthorized');
      }
      // latency=3000 does not hold the connection: the reply comes without the clock moving.
      const held = h.call('GET', '/v1/sessions', undefined, {
        token,
        headers: { [FAULT_HEADER]: 'latency=3000' },
      });
      expect(await stillPending(held)).toBe(false);
      expectError(await held, 401, 'unauthorized');
    }
    expect(h.server.journal.entries().every((entry) => entry.fault === undefined)).toBe(true);
  });

  it('a queued fault waits for an authenticated request: a stranger does not use it up', async () => {
    const h = harness();
    h.server.faults.next({ status: 503 });
    expectError(await h.call('GET', '/v1/sessions', undefined, { token: null }), 401, 'unauthorized');
    expect(h.server.faults.pending).toHaveLength(1);
    expectError(await h.call('GET', '/v1/sessions'), 503, 'injected_fault');
    expect(h.server.faults.pending).toEqual([]);
  });

  it('the control token alone is enough to ask for a fault', async () => {
    const h = harness({ control: true });
    const res = await h.call('GET', '/v1/sessions', undefined, {
      token: null,
      headers: { [FAULT_HEADER]: 'status=502', [CONTROL_TOKEN_HEADER]: h.server.controlToken ?? '' },
    });
    expect(res.status).toBe(502);
    const wrong = await h.call('GET', '/v1/sessions', undefined, {
      token: null,
      headers: { [FAULT_HEADER]: 'status=502', [CONTROL_TOKEN_HEADER]: 'pct_guess' },
    });
    expectError(wrong, 401, 'unauthorized');
  });

  it('faults: false ignores the header entirely; queued faults still apply', async () => {
    const h = harness({ faults: false });
    for (const fault of ['status=503', 'latency=3000', 'drop', 'explode']) {
      const res = h.call('GET', '/v1/sessions', undefined, { headers: { [FAULT_HEADER]: fault } });
      expect(await stillPending(res), fault).toBe(false);
      expect((await res).status, fault).toBe(200);
    }
    h.server.faults.next({ status: 503 });
    expectError(await h.call('GET', '/v1/sessions'), 503, 'injected_fault');
  });

  it('over HTTP an unauthenticated drop does not cut the connection', async () => {
    const running = await startServer({ port: 0 });
    try {
      const res = await rawRequest(running.port, '/v1/sessions', {
        host: `127.0.0.1:${running.port}`,
        [FAULT_HEADER]: 'drop',
      });
      expect(res.status).toBe(401);
    } finally {
      await running.close();
    }
  });
});
