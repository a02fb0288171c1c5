import { readFileSync } from 'node:fs';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { createReferenceServer } from '@parley/reference-server';
import { APIConnectionError, NotFoundError, Parley, type TracerOption } from '@parley/sdk';
import { afterEach, describe, expect, test } from 'vitest';
import { routeTemplate } from '../../src/tracing/route-template.js';
import { recordSpans, SpanKind, SpanStatusCode } from '../helpers/tracing.js';

function setup(tracer: TracerOption) {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    tracer,
  });
  return { server, client };
}

afterEach(() => {
  trace.disable();
});

describe('a span per request (HTTP client span, OpenTelemetry semantic conventions)', () => {
  test('is named after the method and route template and carries method, URL, server, status and request id', async () => {
    const rec = recordSpans();
    const { client } = setup(rec.tracer);
    const { sessionId } = await client.sessions.create();
    const { requestId } = await client.messages.export(sessionId).withResponse();
    const span = rec.span('GET /v1/messages/{sessionId}');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.full': `http://parley.test/v1/messages/${sessionId}`,
      'url.template': '/v1/messages/{sessionId}',
      'server.address': 'parley.test',
      'server.port': 80,
      'http.response.status_code': 200,
      'parley.request_id': requestId,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(rec.spans().map((s) => s.name)).toEqual(['POST /v1/sessions', 'GET /v1/messages/{sessionId}']);
  });

  test('a traced request carries the W3C traceparent of its span, and the server journal shows it', async () => {
    const rec = recordSpans();
    const { client, server } = setup(rec.tracer);
    await client.sessions.create();
    const span = rec.span('POST /v1/sessions');
    const { traceId, spanId } = span.spanContext();
    const [entry] = server.journal.entries({ path: '/v1/sessions', method: 'POST' });
    expect(entry?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });

  test('an untraced request carries no traceparent', async () => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: (input, init) => server.fetch(new Request(input, init)),
    });
    await client.sessions.create();
    const [entry] = server.journal.entries({ path: '/v1/sessions', method: 'POST' });
    expect(entry).toBeDefined();
    expect(entry?.traceparent).toBeUndefined();
  });

  test('a retried request records http.request.resend_count and a parley.retry event per retry', async () => {
    const rec = recordSpans();
    const { client, server } = setup(rec.tracer);
    // Retry-After: 0, so the retries wait nothing.
    server.faults.next({ status: 503, retryAfterSeconds: 0, times: 2, match: { method: 'GET' } });
    await client.sessions.list();
    const span = rec.span('GET /v1/sessions');
    expect(span.attributes['http.request.resend_count']).toBe(2);
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'parley.retry',
        {
          'http.request.resend_count': 1,
          'error.type': '503',
          'parley.request_id': expect.stringMatching(/^req_/),
        },
      ],
      [
        'parley.retry',
        {
          'http.request.resend_count': 2,
          'error.type': '503',
          'parley.request_id': expect.stringMatching(/^req_/),
        },
      ],
    ]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a failed request records its error: an exception event, error.type the status code, status ERROR', async () => {
    const rec = recordSpans();
    const { client } = setup(rec.tracer);
    const error = await client.sessions.delete('sess_missing').catch((e: unknown) => e);
    expect(error instanceof NotFoundError).toBe(true);
    const span = rec.span('DELETE /v1/sessions/{sessionId}');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(span.attributes).toMatchObject({
      'error.type': '404',
      'http.response.status_code': 404,
      'parley.request_id': expect.stringMatching(/^req_/),
    });
    const exception = span.events.find((e) => e.name === 'exception');
    // The OpenTelemetry SDK names an error with a `code` by it: the service's error code.
    expect(exception?.attributes).toMatchObject({
      'exception.type': 'session_not_found',
      'exception.message': (error as Error).message,
    });
  });

  test('a request that never got an answer records the SDK error class as error.type', async () => {
    const rec = recordSpans();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 't',
      maxRetries: 0,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      tracer: rec.tracer,
    });
    const error = await client.sessions.list().catch((e: unknown) => e);
    expect(error instanceof APIConnectionError).toBe(true);
    const span = rec.span('GET /v1/sessions');
    expect(span.attributes['error.type']).toBe('APIConnectionError');
    expect(span.attributes['http.response.status_code']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  test('a request is the child of the span in its traceContext option', async () => {
    const rec = recordSpans();
    const { client } = setup(rec.tracer);
    const parent = rec.tracer.startSpan('app.work');
    await client.sessions.list({ traceContext: trace.setSpan(ROOT_CONTEXT, parent) });
    parent.end();
    const span = rec.span('GET /v1/sessions');
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  test("tracer: 'global' records on the provider registered with @opentelemetry/api, and nothing before one is", async () => {
    const rec = recordSpans();
    const { client } = setup('global');
    await client.sessions.list();
    expect(rec.spans()).toEqual([]);
    trace.setGlobalTracerProvider(rec.provider);
    await client.sessions.list();
    const span = rec.span('GET /v1/sessions');
    expect(span.instrumentationScope.name).toBe('@parley/sdk');
  });

  test('a span that records nothing (a no-op tracer) gets no attributes, and the call works', async () => {
    const { client } = setup({
      startSpan: () => ({
        isRecording: () => false,
        setAttribute: () => {
          throw new Error('set on a span that records nothing');
        },
        setAttributes: () => {
          throw new Error('set on a span that records nothing');
        },
        addEvent: () => {
          throw new Error('event on a span that records nothing');
        },
        setStatus: () => {},
        recordException: () => {},
        end: () => {},
      }),
    });
    await expect(client.sessions.list()).resolves.toEqual([]);
    // The API's own no-op tracer: no provider registered.
    const noop = setup(trace.getTracer('app'));
    await expect(noop.client.sessions.create()).resolves.toMatchObject({ sessionId: expect.any(String) });
  });

  test('a tracer option that is not a tracer is a TypeError naming the option', () => {
    expect(() => new Parley({ baseUrl: 'http://x', token: 't', tracer: {} as never })).toThrow(
      /tracer must be an OpenTelemetry Tracer/,
    );
  });
});

describe('route templates', () => {
  test("every template is a path of the service's OpenAPI document, and every SDK path has one", () => {
    const document = JSON.parse(
      readFileSync(new URL('../../../protocol/openapi.json', import.meta.url), 'utf8'),
    ) as { paths: Record<string, unknown> };
    const paths = [
      'v1/sessions',
      'v1/sessions/sess_1',
      'v1/messages/sess_1',
      'v1/messages/sess_1/stream',
      'v1/messages/sess_1/rewind',
      'v1/tools/request/sess_1/req_1',
      'v1/tools/request/sess_1/req_1/heartbeat',
      'v1/tools/response/sess_1/req_1',
    ];
    const templates = paths.map(routeTemplate);
    expect(new Set(templates).size).toBe(paths.length);
    for (const template of templates) expect(Object.keys(document.paths)).toContain(template);
    expect(routeTemplate('v1/messages/a%2Fb/stream')).toBe('/v1/messages/{sessionId}/stream');
    expect(routeTemplate('v1/unknown')).toBeUndefined();
  });
});
