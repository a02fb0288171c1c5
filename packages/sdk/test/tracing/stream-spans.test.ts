import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { createReferenceServer } from '@parley/reference-server';
import { NotFoundError, Parley, StreamError } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { recordSpans, SpanStatusCode } from '../helpers/tracing.js';

async function setup() {
  const rec = recordSpans();
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    tracer: rec.tracer,
  });
  const { sessionId } = await client.sessions.create();
  return { rec, server, client, sessionId };
}

describe('a span per stream', () => {
  test('counts the events, marks the first one (time to first event) and names the stop reason; the request is its child', async () => {
    const { rec, client, sessionId } = await setup();
    const parent = rec.tracer.startSpan('app.chat');
    const stream = client.messages.stream(
      sessionId,
      { content: '/say Hello there.' },
      { traceContext: trace.setSpan(ROOT_CONTEXT, parent) },
    );
    let events = 0;
    for await (const _event of stream) events++;
    parent.end();
    const span = rec.span('parley.messages.stream');
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.attributes).toMatchObject({
      'parley.session_id': sessionId,
      'parley.stream.events': events,
      'parley.stop_reason': 'end_turn',
    });
    expect(events).toBeGreaterThan(3);
    expect(span.attributes['parley.stream.time_to_first_event_ms']).toBeGreaterThanOrEqual(0);
    expect(span.events.map((e) => e.name)).toEqual(['parley.stream.first_event']);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const request = rec.span('POST /v1/messages/{sessionId}/stream');
    expect(request.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(request.attributes['http.response.status_code']).toBe(200);
  });

  test('a stream cut off records its StreamError and the events read before it', async () => {
    const { rec, server, client, sessionId } = await setup();
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 2 });
    const error = await client.messages
      .stream(sessionId, { content: '/say Hello there.' })
      .finalReply()
      .catch((e: unknown) => e);
    expect(error instanceof StreamError).toBe(true);
    const span = rec.span('parley.messages.stream');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(span.attributes).toMatchObject({ 'error.type': 'StreamError', 'parley.stream.events': 2 });
    expect(span.attributes['parley.stop_reason']).toBeUndefined();
  });

  test('a stream that recovers (recover option) records each recovery as an event and ends without error', async () => {
    const { rec, server, client, sessionId } = await setup();
    server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 2 });
    const text = await client.messages
      .stream(sessionId, { content: '/say Hello there.' }, { recover: { backoff: () => 0 } })
      .finalText();
    expect(text).toBe('Hello there.');
    const span = rec.span('parley.messages.stream');
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['parley.stream.first_event', {}],
      ['parley.stream.recovered', { 'parley.recovery.attempt': 1 }],
    ]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // The cut request is the stream's child; the recovery read the session to learn what landed.
    const children = rec.spans().filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
    expect(children.map((s) => s.name)).toContain('POST /v1/messages/{sessionId}/stream');
    expect(rec.spans().map((s) => s.name)).toContain('GET /v1/messages/{sessionId}');
  });

  test('a stream whose request fails ends its span with that error, even when nobody reads it', async () => {
    const { rec, client } = await setup();
    const error = await client.messages
      .stream('sess_missing', { content: 'Hi' })
      .withResponse()
      .catch((e: unknown) => e);
    expect(error instanceof NotFoundError).toBe(true);
    const span = rec.span('parley.messages.stream');
    expect(span.attributes).toMatchObject({ 'error.type': 'NotFoundError', 'parley.stream.events': 0 });
    const request = rec.span('POST /v1/messages/{sessionId}/stream');
    expect(request.attributes['error.type']).toBe('404');
    expect(request.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
  });
});
