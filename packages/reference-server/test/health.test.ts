import { REQUEST_ID_HEADER } from '@parley/protocol';
import { startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';

describe('GET /healthz: the readiness check', () => {
  it('answers 200 { status: "ok" } without a token, and with a wrong one', async () => {
    const { call } = harness();
    for (const token of [null, 'not-a-token']) {
      const res = await call('GET', '/healthz', undefined, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get(REQUEST_ID_HEADER)).toMatch(/^req_/);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('answers HEAD with 200 and no body', async () => {
    const { call } = harness();
    const res = await call('HEAD', '/healthz', undefined, { token: null });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('is served without the control routes, and /v1 still needs a token', async () => {
    const { server, call } = harness({ control: false });
    expect(server.control).toBe(false);
    expect((await call('GET', '/healthz', undefined, { token: null })).status).toBe(200);
    expectError(await call('GET', '/v1/sessions', undefined, { token: null }), 401, 'unauthorized');
    expectError(await call('POST', '/healthz', {}, { token: null }), 404, 'route_not_found');
  });

  it('is not journaled and does not take a queued fault meant for the protocol', async () => {
    const { server, call } = harness();
    server.faults.next({ status: 503 });
    expect((await call('GET', '/healthz', undefined, { token: null })).status).toBe(200);
    expect(server.journal.entries()).toHaveLength(0);
    expect(server.faults.pending).toHaveLength(1);
    expectError(await call('GET', '/v1/sessions'), 503, 'injected_fault');
  });

  it('answers over HTTP from startServer', async () => {
    const running = await startServer({ port: 0 });
    try {
      const res = await fetch(`${running.url}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    } finally {
      await running.close();
    }
  });
});
