import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT as API_ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley, type TracerOption } from '@parley/sdk';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { activeContext } from '../../src/tracing/active-context.js';
import { ROOT_CONTEXT } from '../../src/tracing/root-context.js';
import { contextWithSpan } from '../../src/tracing/trace-context.js';
import { withContext } from '../../src/tracing/with-context.js';
import { recordSpans } from '../helpers/tracing.js';

const ping = defineTool({
  name: 'ping',
  description: 'Answers pong',
  input: z.object({}),
  run: () => ({ pong: true }),
});

async function setup(tracer: TracerOption) {
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    tracer,
  });
  const { sessionId } = await client.sessions.create({ tools: [ping] });
  return { server, client, sessionId };
}

/** Counts the contexts entered through an `AsyncLocalStorage` (the SDK's own manager on Node). */
function countEntered() {
  return vi.spyOn(AsyncLocalStorage.prototype, 'run');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a tracer that records nothing (the API’s no-op tracer, no provider registered)', () => {
  test('a tracer that records nothing starts no context manager of the SDK’s: a tool loop, a stream and a tool run enter no context', async () => {
    const entered = countEntered();
    const { client, sessionId } = await setup(trace.getTracer('app'));
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool ping {}\n/then Done.',
      stream: true,
    });
    expect([result.status, result.finalText]).toEqual(['done', 'Done.']);
    await client.messages.stream(sessionId, { content: '/say Hi.' }).finalReply();
    expect(entered).toHaveBeenCalledTimes(0);
  });

  test('a tracer that records enters its spans’ contexts through the SDK’s own manager (what the count above would see)', async () => {
    const entered = countEntered();
    const { client, sessionId } = await setup(recordSpans().tracer);
    await client.runToolLoop({ sessionId, content: '/tool ping {}\n/then Done.', stream: true });
    expect(entered.mock.calls.length).toBeGreaterThan(0);
  });

  test('a span that records nothing but carries a valid parent’s ids still travels: every request of the loop carries the parent’s traceparent', async () => {
    const { client, server, sessionId } = await setup(trace.getTracer('app'));
    const parent = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
    const traceContext = trace.setSpanContext(API_ROOT_CONTEXT, parent);
    await client.runToolLoop({ sessionId, content: '/tool ping {}\n/then Done.', traceContext });
    const loop = server.journal.entries().filter((entry) => entry.path !== '/v1/sessions');
    expect(loop.length).toBeGreaterThanOrEqual(3);
    expect(new Set(loop.map((entry) => entry.traceparent))).toEqual(
      new Set([`00-${parent.traceId}-${parent.spanId}-01`]),
    );
  });

  test('a context that carries nothing is entered inside one that carries a span: the outer span is no parent there', () => {
    const recording = recordSpans().tracer.startSpan('outer');
    const noop = trace.getTracer('app').startSpan('inner');
    expect(noop.isRecording()).toBe(false);
    const inner = contextWithSpan(ROOT_CONTEXT, noop);
    const outer = contextWithSpan(ROOT_CONTEXT, recording);
    const seen = withContext(outer, () => withContext(inner, () => activeContext()));
    expect(seen).toBe(inner);
    recording.end();
  });
});
