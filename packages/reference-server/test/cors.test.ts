import { createReferenceServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';

const origin = 'http://localhost:5173';

function preflight(server: ReturnType<typeof createReferenceServer>, path: string) {
  return server.fetch(
    new Request(`http://parley.test${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    }),
  );
}

describe('CORS for browser apps', () => {
  it('a preflight is answered without a token, allowing the auth header', async () => {
    const response = await preflight(createReferenceServer(), '/v1/messages/sess_x/stream');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it('responses, errors included, expose the request id to the page', async () => {
    const response = await createReferenceServer().fetch(
      new Request('http://parley.test/v1/sessions', { headers: { origin } }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-request-id');
  });

  it('an origin list allows only those origins; cors: false sends no CORS headers', async () => {
    const listed = await preflight(createReferenceServer({ cors: [origin] }), '/v1/sessions');
    expect(listed.headers.get('access-control-allow-origin')).toBe(origin);
    const other = await preflight(createReferenceServer({ cors: ['http://elsewhere.test'] }), '/v1/sessions');
    expect(other.headers.get('access-control-allow-origin')).not.toBe(origin);
    const off = await createReferenceServer({ cors: false }).fetch(
      new Request('http://parley.test/v1/sessions', {
        headers: { origin, authorization: 'Bearer parley-demo-token' },
      }),
    );
    expect(off.headers.get('access-control-allow-origin')).toBeNull();
  });
});
