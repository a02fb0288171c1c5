import { fileURLToPath } from 'node:url';
import { startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';

const WEATHER_CASSETTE = fileURLToPath(new URL('./cassette/cassettes/weather.json', import.meta.url));

describe('GET /readyz: ready once the cassette is loaded and the upstream answered', () => {
  it('a server without a cassette or an upstream is ready at once, without a token, and never journaled', async () => {
    const { server, call } = harness();
    const res = await call('GET', '/readyz', undefined, { token: null, headers: { 'x-parley-test-id': '' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(server.journal.size).toBe(0);
  });

  it('a replaying server is ready once its replay model is loaded', async () => {
    const { call } = harness({ replay: WEATHER_CASSETTE });
    expect((await call('GET', '/readyz', undefined, { token: null })).body).toEqual({ status: 'ready' });
  });

  it('a checking proxy whose upstream does not answer is 503 not_ready naming it; ready once it answers', async () => {
    const upstream = await startServer({ port: 0 });
    const url = upstream.url;
    await upstream.close();
    const { call } = harness({ upstream: { url, log: () => {} } });
    const error = expectError(await call('GET', '/readyz', undefined, { token: null }), 503, 'not_ready');
    expect(error.message).toContain(`the upstream ${url} has not answered yet`);
    const again = await startServer({ port: Number(new URL(url).port) });
    try {
      expect((await call('GET', '/readyz', undefined, { token: null })).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
