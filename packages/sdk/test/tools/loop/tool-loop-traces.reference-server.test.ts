import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createReferenceServer } from '@parley/reference-server';
import { defineTool, InternalServerError, Parley } from '@parley/sdk';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { childrenOf, names, recordSpans, SpanStatusCode } from '../../helpers/tracing.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string() }),
  run: ({ city }) => ({ temperatureC: city === 'Paris' ? 18 : 21 }),
});

const failing = defineTool({
  name: 'failing',
  description: 'Always fails',
  input: z.object({}),
  run: () => {
    throw new RangeError('out of range');
  },
});

const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email',
  input: z.object({ to: z.string() }),
  needsApproval: true,
  run: () => ({ sent: true }),
});

async function setup() {
  const rec = recordSpans();
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    tracer: rec.tracer,
  });
  const { sessionId } = await client.sessions.create({ tools: [getWeather, failing] });
  return { rec, server, client, sessionId };
}

afterEach(() => {
  context.disable();
  vi.useRealTimers();
});

describe('tool loop spans: the run, each step, each request and tool run', () => {
  test('nest as run → step → request and tool runs → their heartbeats and report, with what each did', async () => {
    const { rec, client, sessionId } = await setup();
    // Each call works until its first beat (due 5 s after the send, a third of the 15 s lease):
    // time is fake, the server's clock included.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const beaten = new Map<string, () => void>();
    const untilBeaten = defineTool({
      ...getWeather,
      run: async ({ city }, { requestId }) => {
        await new Promise<void>((resolve) => beaten.set(requestId, resolve));
        return { temperatureC: city === 'Paris' ? 18 : 21 };
      },
    });
    let settled = false;
    const running = client
      .runToolLoop({
        sessionId,
        content: '/tool get_weather {"city":"Paris"}\n/tool get_weather {"city":"Rome"}\n/then Done.',
        tools: [untilBeaten, failing],
        random: () => 0,
        onHeartbeat: (_beats, call) => beaten.get(call.requestId)?.(),
      })
      .finally(() => {
        settled = true;
      });
    while (!settled) await vi.advanceTimersByTimeAsync(1_000);
    const result = await running;
    const spans = rec.spans();
    const run = rec.span('parley.tool_loop');
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toMatchObject({
      'parley.session_id': sessionId,
      'parley.tool_loop.max_steps': 10,
      'parley.tool_loop.status': 'done',
      'parley.tool_loop.steps': 2,
      'parley.stop_reason': 'end_turn',
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
    });
    const steps = childrenOf(spans, run);
    expect(steps.map((s) => [s.name, s.attributes['parley.tool_loop.step']])).toEqual([
      ['parley.tool_loop.step', 1],
      ['parley.tool_loop.step', 2],
    ]);
    const [first, second] = steps as [(typeof steps)[0], (typeof steps)[0]];
    expect(first.attributes).toMatchObject({ 'parley.stop_reason': 'tool_use', 'parley.tool_calls': 2 });
    expect(names(childrenOf(spans, first))).toEqual([
      'POST /v1/messages/{sessionId}',
      'execute_tool get_weather',
      'execute_tool get_weather',
    ]);
    expect(names(childrenOf(spans, second))).toEqual(['POST /v1/messages/{sessionId}']);

    const toolResults = result.steps[0]?.toolResults ?? [];
    for (const tool of childrenOf(spans, first).filter((s) => s.name.startsWith('execute_tool'))) {
      const callId = tool.attributes['gen_ai.tool.call.id'];
      expect(toolResults.map((r) => r.requestId)).toContain(callId);
      expect(tool.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'get_weather',
        'gen_ai.tool.type': 'function',
        'parley.tool.status': 'COMPLETE',
      });
      // The send picked the call up: its first beat goes an interval later, and is awaited before the report.
      expect(tool.events.map((e) => [e.name, e.attributes])).toEqual([
        ['parley.heartbeat', { 'parley.heartbeat.beats': 1 }],
      ]);
      expect(names(childrenOf(spans, tool))).toEqual([
        'POST /v1/tools/request/{sessionId}/{requestId}/heartbeat',
        'POST /v1/tools/response/{sessionId}/{requestId}',
      ]);
    }
  });

  test('with stream: true a step holds the stream, which holds its request', async () => {
    const { rec, client, sessionId } = await setup();
    await client.runToolLoop({ sessionId, content: '/say Hello.', stream: true });
    const spans = rec.spans();
    const [step] = childrenOf(spans, rec.span('parley.tool_loop'));
    const [stream] = childrenOf(spans, step!);
    expect(stream?.name).toBe('parley.messages.stream');
    expect(names(childrenOf(spans, stream!))).toEqual(['POST /v1/messages/{sessionId}/stream']);
  });

  test('a tool that throws is an ERROR on its span; an unknown tool’s report is the step’s child; the loop goes on', async () => {
    const { rec, client, sessionId } = await setup();
    const result = await client.runToolLoop({
      sessionId,
      content: '/tool failing {}\n/tool get_time {}\n/then Sorry.',
      tools: [getWeather, failing],
    });
    expect(result.status).toBe('done');
    const tool = rec.span('execute_tool failing');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'out of range' });
    expect(tool.attributes).toMatchObject({ 'parley.tool.status': 'ERROR', 'error.type': 'RangeError' });
    const spans = rec.spans();
    const [step] = childrenOf(spans, rec.span('parley.tool_loop'));
    expect(names(childrenOf(spans, step!))).toEqual([
      'POST /v1/messages/{sessionId}',
      'POST /v1/tools/request/{sessionId}/{requestId}/heartbeat',
      'execute_tool failing',
    ]);
  });

  test('a tool run that needed approval records the decision and who made it', async () => {
    const { rec, client } = await setup();
    const { sessionId } = await client.sessions.create({ tools: [sendEmail] });
    await client.runToolLoop({
      sessionId,
      content:
        '/tool send_email {"to":"a@example.com"}\n/tool send_email {"to":"b@example.com"}\n/then Done.',
      approve: ({ rawInput }) =>
        rawInput.to === 'a@example.com'
          ? { approved: true, by: 'alice' }
          : { approved: false, reason: 'not b', by: 'bob' },
    });
    const runs = rec.spans().filter((s) => s.name === 'execute_tool send_email');
    const decisions = runs.map((s) => [
      s.attributes['parley.tool.approval'],
      s.attributes['parley.tool.approved_by'],
      s.attributes['parley.tool.status'],
      s.status.code,
    ]);
    expect(decisions.sort()).toEqual([
      ['approved', 'alice', 'COMPLETE', SpanStatusCode.UNSET],
      ['denied', 'bob', 'ERROR', SpanStatusCode.ERROR],
    ]);
  });

  test('a loop that fails records the error on the request, the step and the run', async () => {
    const { rec, server, client, sessionId } = await setup();
    server.faults.next({ status: 500, match: { method: 'POST', path: '/v1/messages/*' } });
    const error = await client.runToolLoop({ sessionId, content: 'Hi' }).catch((e: unknown) => e);
    expect(error instanceof InternalServerError).toBe(true);
    for (const name of ['POST /v1/messages/{sessionId}', 'parley.tool_loop.step', 'parley.tool_loop']) {
      expect(rec.span(name).status, name).toEqual({
        code: SpanStatusCode.ERROR,
        message: (error as Error).message,
      });
    }
    expect(rec.span('parley.tool_loop').attributes['error.type']).toBe('InternalServerError');
  });

  test('the run is the child of the active span (a context manager) or of its traceContext option', async () => {
    const { rec, client, sessionId } = await setup();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const app = rec.tracer.startSpan('app.request');
    await context.with(trace.setSpan(context.active(), app), () =>
      client.runToolLoop({ sessionId, content: '/say One.' }),
    );
    const explicit = rec.tracer.startSpan('app.job');
    await client.runToolLoop({
      sessionId,
      content: '/say Two.',
      traceContext: trace.setSpan(ROOT_CONTEXT, explicit),
    });
    const runs = rec.spans().filter((s) => s.name === 'parley.tool_loop');
    expect(runs.map((s) => s.parentSpanContext?.spanId)).toEqual([
      app.spanContext().spanId,
      explicit.spanContext().spanId,
    ]);
  });
});
