import { ErrorBodySchema } from '@parley/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';

describe('errors', () => {
  it('a body that is not JSON is a 400 invalid_json', async () => {
    const { call } = harness();
    expectError(
      await call('POST', '/v1/sessions', undefined, { rawBody: '{"customizations":' }),
      400,
      'invalid_json',
    );
    expectError(
      await call('POST', '/v1/sessions', undefined, { rawBody: new Uint8Array([0xff, 0xfe, 0x7b]) }),
      400,
      'invalid_json',
    );
  });

  it('a body that breaks the schema is a 400 invalid_request whose message names the field path', async () => {
    const { call } = harness();
    const error = expectError(
      await call('POST', '/v1/sessions', {
        customizations: {
          extensions: {
            tools: { weather: { name: 'weather', description: 'd', requestArgs: { type: 'array' } } },
          },
        },
      }),
      400,
      'invalid_request',
    );
    expect(error.message).toContain('customizations.extensions.tools.weather.requestArgs.type');
    expect(error.details?.issues).toBeInstanceOf(Array);
  });

  it('request bodies are strict: an unknown field is a 400', async () => {
    const { call, createSession } = harness();
    const error = expectError(
      await call('POST', '/v1/sessions', { customizations: { agentID: 'default' } }),
      400,
      'invalid_request',
    );
    expect(error.message).toContain('agentID');
    const sessionId = await createSession();
    expectError(
      await call('POST', `/v1/messages/${sessionId}`, { content: 'hi', role: 'user' }),
      400,
      'invalid_request',
    );
  });

  it('the Content-Type header is not enforced: a JSON body sent as a form is accepted', async () => {
    const { call } = harness();
    const res = await call('POST', '/v1/sessions', undefined, {
      rawBody: '{"customizations":{"agentId":"weather"}}',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
  });

  it('a body over maxBodyBytes is a 413 payload_too_large with a Content-Length', async () => {
    const { call } = harness({ maxBodyBytes: 100 });
    const body = JSON.stringify({ customizations: { sessionData: 'x'.repeat(200) } });
    expectError(await call('POST', '/v1/sessions', undefined, { rawBody: body }), 413, 'payload_too_large');
  });

  it('a body over maxBodyBytes is a 413 even without a Content-Length (streamed body)', async () => {
    const { server } = harness({ maxBodyBytes: 1024 });
    const chunk = new TextEncoder().encode(`{"customizations":{"sessionData":"${'x'.repeat(600)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 4) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = new Request('http://x/v1/sessions', {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const res = await server.fetch(request);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('the default body limit is 1 MiB', async () => {
    const { call, createSession } = harness();
    const sessionId = await createSession();
    const big = JSON.stringify({ content: 'x'.repeat(1024 * 1024) });
    expectError(
      await call('POST', `/v1/messages/${sessionId}`, undefined, { rawBody: big }),
      413,
      'payload_too_large',
    );
  });

  it('an unknown route is a 404 route_not_found, with or without /v1', async () => {
    const { call } = harness();
    expectError(await call('GET', '/v1/nothing'), 404, 'route_not_found');
    expectError(await call('GET', '/'), 404, 'route_not_found');
    expectError(await call('PUT', '/v1/sessions'), 404, 'route_not_found');
  });

  it('a failure inside the server is a 500 internal_error with the same body shape', async () => {
    const { call } = harness({
      extensionHost: {
        validateSession: () => {
          throw new TypeError('boom');
        },
      },
    });
    const original = console.error;
    console.error = () => {};
    try {
      const error = expectError(await call('POST', '/v1/sessions'), 500, 'internal_error');
      expect(error.message).not.toContain('boom');
    } finally {
      console.error = original;
    }
  });

  const ENDPOINTS: Array<[string, (s: string, r: string) => string]> = [
    ['POST', () => '/v1/sessions'],
    ['POST', (s) => `/v1/messages/${s}`],
    ['POST', (s) => `/v1/messages/${s}/stream`],
    ['POST', (s) => `/v1/messages/${s}/rewind`],
    ['POST', (s, r) => `/v1/tools/request/${s}/${r}/heartbeat`],
    ['POST', (s, r) => `/v1/tools/response/${s}/${r}`],
    ['GET', (s) => `/v1/messages/${s}?includeDeleted=${encodeURIComponent(s)}`],
  ];

  it.each(ENDPOINTS)(
    'fuzz: random JSON and strings to %s %s never give a 500 and keep the error shape',
    async (method, path) => {
      const h = harness();
      const sessionId = await h.createSession();
      const reply = await h.send(sessionId, '/tool probe {}');
      const requestId = reply.pendingTools[0]?.requestId ?? 'x';
      const body = fc.oneof(
        fc.json().map((text) => ({ text })),
        fc.string().map((text) => ({ text })),
        fc.jsonValue().map((value) => ({
          text: JSON.stringify({
            content: value,
            customizations: value,
            index: value,
            state: value,
            response: value,
          }),
        })),
        fc
          .record({
            state: fc.constantFrom('PROCESSING', 'ERROR', 'COMPLETE', 'x'),
            heartbeat: fc.jsonValue(),
            error: fc.jsonValue(),
          })
          .map((v) => ({ text: JSON.stringify(v) })),
      );
      await fc.assert(
        fc.asyncProperty(body, async ({ text }) => {
          const res = await h.call(
            method,
            path(sessionId, requestId),
            undefined,
            method === 'GET' ? {} : { rawBody: text },
          );
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(ErrorBodySchema.safeParse(res.body).success).toBe(true);
        }),
        { numRuns: 60 },
      );
    },
  );

  it('fuzz: random paths and methods never give a 500', async () => {
    const h = harness();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH'),
        fc.array(
          fc.oneof(
            fc.constantFrom('v1', 'sessions', 'messages', 'tools', 'request', 'stream'),
            fc.webSegment(),
          ),
          { maxLength: 6 },
        ),
        async (method, segments) => {
          const res = await h.call(
            method,
            `/${segments.join('/')}`,
            undefined,
            method === 'GET' ? {} : { rawBody: '{}' },
          );
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(ErrorBodySchema.safeParse(res.body).success).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
