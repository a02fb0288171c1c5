// Approval of one call (`needsApproval`, `approve`) in runTool, on a fake transport and fake time.
import {
  defineTool,
  type ToolApprovalAnswer,
  type ToolApprovalRequest,
  ToolApprovalTimeoutError,
  ToolCallLostError,
} from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { apiError, FakeTransport } from '../helpers/fake-transport.js';

const sessionId = 'sess_1';
/** A call whose deadline is one minute after it was made (server clock: any origin). */
const pending = {
  requestId: 'tooluse_1',
  name: 'send_email',
  input: { to: 'ada@example.com' },
  createdAt: 5_000,
  deadlineAt: 65_000,
};
/**
 * When the wait gives up: the call's lifetime less one heartbeat interval (1 s for these calls),
 * which lets the ERROR land in time.
 */
const WAIT_MS = 60_000 - 1_000;

function emailTool(needsApproval: boolean | ((input: { to: string }) => boolean) = true) {
  const sent: string[] = [];
  const tool = defineTool({
    name: 'send_email',
    description: 'Sends an email',
    input: z.object({ to: z.string() }),
    needsApproval,
    run: ({ to }) => {
      sent.push(to);
      return { sent: true };
    },
  });
  return { tool, sent };
}

/** An `approve` that keeps each request until the test answers it. */
function person() {
  const asked: Array<{ request: ToolApprovalRequest; answer: (a: ToolApprovalAnswer) => void }> = [];
  const approve = (request: ToolApprovalRequest) =>
    new Promise<ToolApprovalAnswer>((answer) => {
      asked.push({ request, answer });
    });
  return { asked, approve };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('approval before a tool runs', () => {
  test('the call heartbeats while the answer is awaited; once approved the handler runs and the result records who approved', async () => {
    const transport = new FakeTransport();
    const { tool, sent } = emailTool();
    const { asked, approve } = person();
    const running = runTool(transport, { sessionId, pending, tool, heartbeatTimeoutMs: 3_000, approve });
    await vi.advanceTimersByTimeAsync(10_000); // ten beats of one second while a person thinks
    expect(asked).toHaveLength(1);
    expect(asked[0]?.request).toMatchObject({
      sessionId,
      requestId: 'tooluse_1',
      name: 'send_email',
      input: { to: 'ada@example.com' },
      rawInput: { to: 'ada@example.com' },
      expiresAt: WAIT_MS,
    });
    expect(sent).toEqual([]);
    expect(transport.of('heartbeat').length).toBeGreaterThanOrEqual(10);
    asked[0]?.answer({ approved: true, by: 'ada' });
    const result = await running;
    expect(result).toMatchObject({ status: 'COMPLETE', output: { sent: true } });
    expect(result.approval).toEqual({
      requestId: 'tooluse_1',
      name: 'send_email',
      input: { to: 'ada@example.com' },
      outcome: 'approved',
      by: 'ada',
    });
    expect(sent).toEqual(['ada@example.com']);
    expect(transport.log.at(-1)).toBe('respond');
  });

  test('a denial reaches the model as ERROR with the reason, and the handler never runs', async () => {
    const transport = new FakeTransport();
    const { tool, sent } = emailTool();
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool,
      approve: () => ({ approved: false, reason: 'Not to that address', by: 'ada' }),
    });
    const message = 'Tool "send_email" was not run: approval was denied: Not to that address';
    expect(result).toMatchObject({ status: 'ERROR', error: message });
    expect(result.approval).toMatchObject({ outcome: 'denied', by: 'ada', reason: 'Not to that address' });
    expect(transport.of('fail').map((c) => c.message)).toEqual([message]);
    expect(sent).toEqual([]);
  });

  test("at the call's deadline the wait ends with a ToolApprovalTimeoutError and the call is reported ERROR", async () => {
    const transport = new FakeTransport();
    const { tool, sent } = emailTool();
    const { asked, approve } = person();
    const running = runTool(transport, { sessionId, pending, tool, approve });
    await vi.advanceTimersByTimeAsync(WAIT_MS - 1);
    const request = asked[0]?.request;
    expect(request?.signal.aborted).toBe(false);
    expect(transport.of('fail')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const result = await running;
    // The question's signal tells the person's screen to take it down.
    expect(request?.signal.reason instanceof ToolApprovalTimeoutError).toBe(true);
    const message = `Tool "send_email" was not run: no one approved the call before its deadline (waited ${WAIT_MS} ms for an answer)`;
    expect(result).toMatchObject({ status: 'ERROR', error: message });
    expect(result.cause instanceof ToolApprovalTimeoutError).toBe(true);
    expect(result.approval).toMatchObject({ outcome: 'timed_out', reason: message });
    expect(transport.of('fail')[0]).toMatchObject({ message, at: WAIT_MS });
    // A late answer changes nothing.
    asked[0]?.answer({ approved: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([]);
  });

  test('the deadline counts from when the reply arrived (receivedAt), not from when the call started', async () => {
    const transport = new FakeTransport();
    const { tool } = emailTool();
    const { asked, approve } = person();
    await vi.advanceTimersByTimeAsync(20_000); // queued behind other calls for 20 s
    const running = runTool(transport, { sessionId, pending, tool, approve, receivedAt: 0 });
    await vi.advanceTimersByTimeAsync(WAIT_MS - 20_000);
    expect((await running).approval?.outcome).toBe('timed_out');
    expect(asked[0]?.request.expiresAt).toBe(WAIT_MS);
  });

  test('a call lost while its approval is awaited is LOST; the question is withdrawn and nothing is reported', async () => {
    const transport = new FakeTransport((call) => {
      if (call.kind === 'heartbeat' && transport.of('heartbeat').length === 3) throw apiError(409);
      return undefined;
    });
    const { tool } = emailTool();
    const { asked, approve } = person();
    const running = runTool(transport, { sessionId, pending, tool, approve, heartbeatTimeoutMs: 3_000 });
    await vi.advanceTimersByTimeAsync(2_000);
    const result = await running;
    expect(result.status).toBe('LOST');
    expect(asked[0]?.request.signal.reason instanceof ToolCallLostError).toBe(true);
    expect(transport.of('fail')).toEqual([]);
    expect(transport.of('respond')).toEqual([]);
  });

  test('needsApproval as a predicate of the input: only the calls it picks are asked about', async () => {
    const transport = new FakeTransport();
    const { tool, sent } = emailTool(({ to }) => !to.endsWith('@example.com'));
    const approve = vi.fn(() => ({ approved: false as const, reason: 'outside the company' }));
    const inside = await runTool(transport, { sessionId, pending, tool, approve });
    const outside = await runTool(transport, {
      sessionId,
      pending: { ...pending, requestId: 'tooluse_2', input: { to: 'eve@elsewhere.test' } },
      tool,
      approve,
    });
    expect(inside).toMatchObject({ status: 'COMPLETE' });
    expect(inside.approval).toBeUndefined();
    expect(outside).toMatchObject({ status: 'ERROR', approval: { outcome: 'denied' } });
    expect(approve).toHaveBeenCalledTimes(1);
    expect(sent).toEqual(['ada@example.com']);
  });

  test('input that fails the schema is reported without asking anyone', async () => {
    const transport = new FakeTransport();
    const { tool } = emailTool();
    const approve = vi.fn(() => ({ approved: true as const }));
    const result = await runTool(transport, {
      sessionId,
      pending: { ...pending, input: { to: 3 } },
      tool,
      approve,
    });
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatch(/^Invalid input for tool "send_email"/);
    expect(approve).not.toHaveBeenCalled();
  });

  test('an approve that throws, or answers something else, fails the call as ERROR naming the problem', async () => {
    const { tool, sent } = emailTool();
    const thrown = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      approve: () => {
        throw new Error('the dialog crashed');
      },
    });
    expect(thrown).toMatchObject({
      status: 'ERROR',
      error: 'Tool "send_email" was not run: asking for approval failed: the dialog crashed',
      approval: { outcome: 'failed' },
    });
    const malformed = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      approve: (() => true) as never,
    });
    expect(malformed).toMatchObject({
      status: 'ERROR',
      error:
        'Tool "send_email" was not run: approve answered true, not { approved: true, input? }, { approved: false, reason } or { respond: output }',
    });
    expect(sent).toEqual([]);
  });

  test('approve with an edited input: the handler runs the edited input, checked by the schema, and the record names both', async () => {
    const transport = new FakeTransport();
    const { tool, sent } = emailTool();
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool,
      approve: () => ({ approved: true, input: { to: 'grace@example.com' }, by: 'ada' }),
    });
    expect(result).toMatchObject({ status: 'COMPLETE', output: { sent: true } });
    expect(sent).toEqual(['grace@example.com']);
    expect(result.approval).toEqual({
      requestId: 'tooluse_1',
      name: 'send_email',
      input: { to: 'ada@example.com' },
      outcome: 'edited',
      editedInput: { to: 'grace@example.com' },
      by: 'ada',
    });
  });

  test('an edited input equal to the one asked about is a plain approval', async () => {
    const { tool, sent } = emailTool();
    const result = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      approve: ({ input }) => ({ approved: true, input: { ...(input as { to: string }) } }),
    });
    expect(result.approval).toEqual({
      requestId: 'tooluse_1',
      name: 'send_email',
      input: { to: 'ada@example.com' },
      outcome: 'approved',
    });
    expect(sent).toEqual(['ada@example.com']);
  });

  test('an edited input that fails the schema is not run: the model gets the issues and the record says failed', async () => {
    const transport = new FakeTransport();
    const { tool, sent } = emailTool();
    const result = await runTool(transport, {
      sessionId,
      pending,
      tool,
      approve: () => ({ approved: true, input: { to: 3 } }),
    });
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatch(
      /^Invalid input for tool "send_email" \(as approve edited it\):\n✖ .*\n {2}→ at to$/,
    );
    expect(result.approval).toMatchObject({ outcome: 'failed', editedInput: { to: 3 } });
    expect(transport.of('fail').map((c) => c.message)).toEqual([result.error]);
    expect(sent).toEqual([]);
  });

  test("respond: the handler does not run, and the answer is the call's result, checked by the output schema", async () => {
    const transport = new FakeTransport();
    const sent: string[] = [];
    const tool = defineTool({
      name: 'send_email',
      description: 'Sends an email',
      input: z.object({ to: z.string() }),
      output: z.object({ sent: z.boolean(), note: z.string().optional() }),
      needsApproval: true,
      run: ({ to }) => {
        sent.push(to);
        return { sent: true };
      },
    });
    const responded = await runTool(transport, {
      sessionId,
      pending,
      tool,
      approve: () => ({ respond: { sent: false, note: 'Ada is on leave: ask Grace' }, by: 'ada' }),
    });
    expect(responded).toMatchObject({
      status: 'COMPLETE',
      output: { sent: false, note: 'Ada is on leave: ask Grace' },
      approval: { outcome: 'responded', by: 'ada', input: { to: 'ada@example.com' } },
    });
    expect(transport.of('respond').map((c) => c.output)).toEqual([
      { sent: false, note: 'Ada is on leave: ask Grace' },
    ]);
    const wrong = await runTool(new FakeTransport(), {
      sessionId,
      pending,
      tool,
      approve: () => ({ respond: { sent: 'no' } }),
    });
    expect(wrong.status).toBe('ERROR');
    expect(wrong.error).toMatch(/^Tool "send_email" returned output that does not match its output schema:/);
    expect(sent).toEqual([]);
  });

  test('a tool that needs approval with no approve fails at the start, naming it, before any request', async () => {
    const transport = new FakeTransport();
    const { tool } = emailTool();
    await expect(runTool(transport, { sessionId, pending, tool })).rejects.toThrow(
      'The tool "send_email" needs approval (needsApproval) but no approve callback was given: pass approve to runToolLoop (or runTool)',
    );
    expect(transport.calls).toEqual([]);
  });
});
