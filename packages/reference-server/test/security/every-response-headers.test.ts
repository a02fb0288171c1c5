import {
  CONTROL_TOKEN_HEADER,
  createReferenceServer,
  FAULT_HEADER,
  startServer,
} from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { rawRequest } from './raw-request.js';

const origin = 'http://localhost:5173';
const auth = { authorization: 'Bearer parley-demo-token' };

/** Requests that end in every kind of response: protocol, errors, faults, 404s, control, documents. */
function requests(controlToken: string): Array<[string, Request]> {
  const at = (path: string, init: RequestInit = {}) =>
    new Request(`http://parley.test${path}`, { ...init, headers: { origin, ...init.headers } });
  const control = { [CONTROL_TOKEN_HEADER]: controlToken };
  return [
    ['a protocol reply', at('/v1/sessions', { headers: auth })],
    ['a created session', at('/v1/sessions', { method: 'POST', headers: auth })],
    ['401 unauthorized', at('/v1/sessions')],
    ['404 under /v1', at('/v1/nowhere', { headers: auth })],
    ['404 outside /v1', at('/nowhere')],
    [
      '400 invalid_json',
      at('/v1/sessions', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{',
      }),
    ],
    ['an injected status fault', at('/v1/sessions', { headers: { ...auth, [FAULT_HEADER]: 'status=503' } })],
    [
      'an injected error-code fault',
      at('/v1/sessions', { headers: { ...auth, [FAULT_HEADER]: 'code=quota_exceeded' } }),
    ],
    ['a bad fault header', at('/v1/sessions', { headers: { ...auth, [FAULT_HEADER]: 'explode' } })],
    ['a control route', at('/_parley/health', { headers: control })],
    ['a control route without the token', at('/_parley/journal')],
    ['a 404 control route', at('/_parley/nope', { headers: control })],
    [
      'a 415 control route',
      at('/_parley/faults', {
        method: 'POST',
        headers: { ...control, 'content-type': 'text/plain' },
        body: '{}',
      }),
    ],
    ['the journal page shell', at('/_parley/ui/')],
    ['the OpenAPI document', at('/openapi.json')],
    [
      'a preflight',
      at('/v1/sessions', {
        method: 'OPTIONS',
        headers: {
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      }),
    ],
  ];
}

describe('headers on every response', () => {
  it('every response carries CORS headers and x-content-type-options: nosniff', async () => {
    const server = createReferenceServer({ control: true });
    for (const [name, request] of requests(server.controlToken ?? '')) {
      const response = await server.fetch(request);
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(response.headers.get('access-control-allow-origin'), name).toBe('*');
      if (request.method !== 'OPTIONS') {
        expect(response.headers.get('access-control-expose-headers'), name).toContain('x-request-id');
      }
    }
  });

  it('a streamed reply carries them too, and still streams', async () => {
    const server = createReferenceServer();
    const { sessionId } = (await (
      await server.fetch(new Request('http://parley.test/v1/sessions', { method: 'POST', headers: auth }))
    ).json()) as { sessionId: string };
    const response = await server.fetch(
      new Request(`http://parley.test/v1/messages/${sessionId}/stream`, {
        method: 'POST',
        headers: { ...auth, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ content: '/say streamed' }),
      }),
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toContain('streamed');
  });

  it('cors: false sends no CORS headers but still nosniff; a list allows only its origins', async () => {
    const off = createReferenceServer({ cors: false, control: true });
    for (const [name, request] of requests(off.controlToken ?? '')) {
      const response = await off.fetch(request);
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(response.headers.get('access-control-allow-origin'), name).toBeNull();
    }
    const listed = createReferenceServer({ cors: [origin, 'https://app.test'], control: true });
    for (const [name, request] of requests(listed.controlToken ?? '')) {
      const response = await listed.fetch(request);
      expect(response.headers.get('access-control-allow-origin'), name).toBe(origin);
      expect(response.headers.get('vary')?.toLowerCase(), name).toContain('origin');
    }
    const other = await listed.fetch(
      new Request('http://parley.test/openapi.json', { headers: { origin: 'https://evil.test' } }),
    );
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a preflight allows the request headers it asks for, on any path, without a token', async () => {
    const server = createReferenceServer({ control: true });
    for (const path of ['/v1/messages/sess_x/stream', '/_parley/faults', '/nowhere']) {
      const response = await server.fetch(
        new Request(`http://parley.test${path}`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': `authorization, content-type, x-app-version, ${FAULT_HEADER}, ${CONTROL_TOKEN_HEADER}`,
          },
        }),
      );
      expect(response.status, path).toBe(204);
      expect(response.headers.get('access-control-allow-headers'), path).toBe(
        `authorization, content-type, x-app-version, ${FAULT_HEADER}, ${CONTROL_TOKEN_HEADER}`,
      );
      expect(response.headers.get('access-control-allow-methods'), path).toContain('PUT');
    }
    // Preflights are not the application's requests: the journal does not record them.
    expect(server.journal.size).toBe(0);
  });

  it('over HTTP the host check refusal, a fault and a 404 carry them as well', async () => {
    const running = await startServer({ port: 0 });
    try {
      for (const [path, headers] of [
        ['/v1/sessions', { host: 'attacker.example' }],
        ['/v1/sessions', { host: `127.0.0.1:${running.port}`, ...auth, [FAULT_HEADER]: 'status=500' }],
        ['/missing', { host: `localhost:${running.port}` }],
      ] as const) {
        const res = await rawRequest(running.port, path, { origin, ...headers });
        expect(res.headers['x-content-type-options'], path).toBe('nosniff');
        expect(res.headers['access-control-allow-origin'], path).toBe('*');
      }
    } finally {
      await running.close();
    }
  });
});
