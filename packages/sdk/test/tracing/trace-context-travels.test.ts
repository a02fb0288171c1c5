import { type Context, context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley, type TracerOption } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { activeContext } from '../../src/tracing/active-context.js';
import { withContext } from '../../src/tracing/with-context.js';
import { childrenOf, names, recordSpans } from '../helpers/tracing.js';

type Recorder = ReturnType<typeof recordSpans>;

/**
 * A tool whose handler records a span of its own, as an app's code does (`startActiveSpan`), after
 * `before` (if given) settled.
 */
function lookupTool(rec: Recorder, before?: () => Promise<void>) {
  return defineTool({
    name: 'lookup',
    description: 'Looks up',
    input: z.object({}),
    run: async () => {
      await before?.();
      return rec.tracer.startActiveSpan('app.lookup', (span) => {
        span.end();
        return { found: true };
      });
    },
  });
}

const plain = defineTool({
  name: 'plain',
  description: 'Answers',
  input: z.object({}),
  run: () => ({ ok: true }),
});

async function setup(tracer: TracerOption, rec = recordSpans(), heartbeatTimeoutMs?: number) {
  const server = createReferenceServer(heartbeatTimeoutMs === undefined ? {} : { heartbeatTimeoutMs });
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    tracer,
  });
  const lookup = lookupTool(rec);
  const { sessionId } = await client.sessions.create({ tools: [lookup, plain] });
  return { rec, server, client, sessionId, lookup };
}

function parentOf(spans: readonly ReadableSpan[], span: ReadableSpan): string | undefined {
  return spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId)?.name;
}

afterEach(() => {
  context.disable();
});

describe('the trace context travels through the OpenTelemetry context API', () => {
  test('spans of a loop nest through a registered context manager, and a tool’s own span is the child of its execute_tool span', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const rec = recordSpans();
    // The shortest lease (beats every 250 ms): the send picked the call up, so its first beat, the
    // one whose span is checked, goes a timer's interval later; the handler waits for it.
    const { client, sessionId } = await setup(rec.tracer, rec, 750);
    let beaten: () => void = () => {};
    const firstBeat = new Promise<void>((resolve) => {
      beaten = resolve;
    });
    await client.runToolLoop({
      sessionId,
      content: '/tool lookup {}\n/then Done.',
      stream: true,
      tools: [lookupTool(rec, () => firstBeat)],
      random: () => 0,
      onHeartbeat: () => beaten(),
    });
    const spans = rec.spans();
    const tree = spans.map((s) => [s.name, parentOf(spans, s) ?? null]);
    expect(tree).toEqual(
      expect.arrayContaining([
        ['parley.tool_loop', null],
        ['parley.tool_loop.step', 'parley.tool_loop'],
        ['parley.messages.stream', 'parley.tool_loop.step'],
        ['POST /v1/messages/{sessionId}/stream', 'parley.messages.stream'],
        ['execute_tool lookup', 'parley.tool_loop.step'],
        ['app.lookup', 'execute_tool lookup'],
        ['POST /v1/tools/request/{sessionId}/{requestId}/heartbeat', 'execute_tool lookup'],
        ['POST /v1/tools/response/{sessionId}/{requestId}', 'execute_tool lookup'],
      ]),
    );
    expect(tree.filter(([, parent]) => parent === null)).toEqual([
      ['POST /v1/sessions', null],
      ['parley.tool_loop', null],
    ]);
  });

  test('with a plain tracer and no context manager registered, spans nest through the SDK’s own: a loop’s recovery reads are children of its step', async () => {
    const rec = recordSpans();
    const { server, client, sessionId } = await setup(rec.tracer, rec);
    // The reply fails after the request was sent: the recovery reads the session before it goes on.
    server.faults.next({ status: 500, match: { method: 'POST', path: '/v1/messages/*' } });
    const result = await client.runToolLoop({
      sessionId,
      content: '/say Hi.',
      recover: { backoff: () => 0 },
    });
    expect(result.status).toBe('done');
    const spans = rec.spans();
    const [step] = childrenOf(spans, rec.span('parley.tool_loop'));
    const children = names(childrenOf(spans, step as ReadableSpan));
    expect(children).toContain('GET /v1/messages/{sessionId}');
    expect(children.filter((name) => name === 'POST /v1/messages/{sessionId}').length).toBeGreaterThan(1);
  });

  test('the SDK’s own context manager (no registered one) keeps the context across awaits and timers on Node', async () => {
    const entered = ROOT_CONTEXT.setValue(Symbol('key'), 'value');
    const seen = await withContext(entered, async () => {
      await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
      return activeContext();
    });
    expect(seen).toBe(entered);
    expect(activeContext()).not.toBe(entered);
  });

  test('a user’s own active span, entered with context.with, is the parent of the loop, stream, request and tool run spans', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const rec = recordSpans();
    const { client, sessionId, lookup } = await setup(rec.tracer, rec);
    const app = rec.tracer.startSpan('app.request');
    await context.with(trace.setSpan(context.active(), app), async () => {
      await client.runToolLoop({ sessionId, content: '/say One.' });
      await client.messages.stream(sessionId, { content: '/say Two.' }).finalReply();
      await client.sessions.list();
      const reply = await client.messages.send(sessionId, { content: '/tool lookup {}\n/then Done.' });
      const pending = reply.pendingTools[0];
      if (!pending) throw new Error('no pending tool');
      await runTool(client, { sessionId, pending, tool: lookup });
    });
    app.end();
    const children = names(childrenOf(rec.spans(), rec.span('app.request')));
    expect(children).toEqual([
      'GET /v1/sessions',
      'POST /v1/messages/{sessionId}',
      'execute_tool lookup',
      'parley.messages.stream',
      'parley.tool_loop',
    ]);
  });

  test('a tracer or a context manager that throws never fails a call: tracing observes, never changes', async () => {
    const fails = () => {
      throw new Error('broken');
    };
    const managers = {
      'active and with throw': { active: fails, with: fails },
      'with never calls fn': { active: () => ROOT_CONTEXT, with: () => undefined },
      'with throws after fn ran': {
        active: () => ROOT_CONTEXT,
        with: (_context: Context, fn: () => unknown) => {
          fn();
          throw new Error('broken after');
        },
      },
      'active answers no context': {
        active: () => undefined,
        with: (_c: Context, fn: () => unknown) => fn(),
      },
    };
    const tracers: Record<string, TracerOption> = {
      recording: recordSpans().tracer,
      'startSpan throws': { startSpan: fails },
    };
    for (const [managerName, manager] of Object.entries(managers)) {
      for (const [tracerName, tracer] of Object.entries(tracers)) {
        const broken = { ...manager, bind: <T>(_c: Context, target: T) => target, enable: () => broken };
        context.setGlobalContextManager({ ...broken, disable: () => broken } as never);
        const { client, sessionId } = await setup(tracer);
        const label = `${managerName}, ${tracerName} tracer`;
        const result = await client.runToolLoop({
          sessionId,
          content: '/tool plain {}\n/then Done.',
          stream: true,
        });
        expect([result.status, result.finalText], label).toEqual(['done', 'Done.']);
        expect(
          result.steps[0]?.toolResults.map((r) => r.status),
          label,
        ).toEqual(['COMPLETE']);
        await expect(client.sessions.list(), label).resolves.toHaveLength(1);
        context.disable();
      }
    }
  });
});
