import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { childrenOf, names, recordSpans, SpanStatusCode } from '../../helpers/tracing.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  input: z.object({}),
  run: () => ({ ok: true }),
});

/** Waits until its call is lost (its signal aborts). */
const waits = defineTool({
  name: 'waits',
  description: 'Waits for its signal',
  input: z.object({}),
  run: (_input, ctx) =>
    new Promise<{ ok: boolean }>((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
    }),
});

async function pendingCall(name: string) {
  const rec = recordSpans();
  const server = createReferenceServer();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    tracer: rec.tracer,
  });
  const { sessionId } = await client.sessions.create({ tools: [echo, waits] });
  const reply = await client.messages.send(sessionId, { content: `/tool ${name} {}\n/then Done.` });
  const pending = reply.pendingTools[0];
  if (!pending) throw new Error('no pending tool');
  return { rec, server, client, sessionId, pending };
}

describe('a span per tool run', () => {
  test('client.tools.run and runTool with a client record execute_tool, its requests as children', async () => {
    const { rec, client, sessionId, pending } = await pendingCall('echo');
    const result = await client.tools.run(sessionId, pending, echo);
    expect(result.status).toBe('COMPLETE');
    const span = rec.span('execute_tool echo');
    expect(span.attributes).toMatchObject({
      'gen_ai.tool.call.id': pending.requestId,
      'parley.session_id': sessionId,
      'parley.tool.status': 'COMPLETE',
    });
    expect(names(childrenOf(rec.spans(), span))).toEqual([
      'POST /v1/tools/request/{sessionId}/{requestId}/heartbeat',
      'POST /v1/tools/response/{sessionId}/{requestId}',
    ]);
    // runTool given the client (not its transport) finds the client's tracer too.
    await runTool(client, { sessionId, pending, tool: echo });
    expect(rec.spans().filter((s) => s.name === 'execute_tool echo')).toHaveLength(2);
  });

  test('a failed heartbeat is a parley.heartbeat.error event', async () => {
    const { rec, server, client, sessionId, pending } = await pendingCall('echo');
    server.faults.next({ status: 503, match: { path: '/v1/tools/request/*/*/heartbeat' } });
    await client.tools.run(sessionId, pending, echo);
    const span = rec.span('execute_tool echo');
    expect(span.events.map((e) => [e.name, e.attributes?.['error.type']])).toEqual([
      ['parley.heartbeat.error', 'InternalServerError'],
    ]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a call lost to a 409 heartbeat is LOST, recorded as the span’s ToolCallLostError', async () => {
    const { rec, server, client, sessionId, pending } = await pendingCall('waits');
    server.faults.next({ status: 409, match: { path: '/v1/tools/request/*/*/heartbeat' } });
    const result = await client.tools.run(sessionId, pending, waits);
    expect(result.status).toBe('LOST');
    const span = rec.span('execute_tool waits');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: result.error });
    expect(span.attributes).toMatchObject({
      'parley.tool.status': 'LOST',
      'error.type': 'ToolCallLostError',
    });
  });
});
