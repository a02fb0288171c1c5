import type { MessageReply } from '@parley/protocol';
import { hasToolCall, stepCountIs, type ToolLoopStep } from '@parley/sdk';
import { describe, expect, test } from 'vitest';

function step(n: number, toolNames: string[] = []): ToolLoopStep {
  const pendingTools = toolNames.map((name, i) => ({
    requestId: `tooluse_${i}`,
    name,
    input: {},
    state: 'PENDING' as const,
    createdAt: 0,
    deadlineAt: 1,
  }));
  const reply: MessageReply = {
    sessionId: 'sess_1',
    messages: [],
    stopReason: toolNames.length > 0 ? 'tool_use' : 'end_turn',
    pendingTools,
    heartbeatTimeoutMs: 15_000,
  };
  return { step: n, reply, toolResults: [] };
}

describe('the stop condition helpers', () => {
  test('stepCountIs(n) holds from the n-th step on, and names itself', () => {
    const condition = stepCountIs(2);
    expect([1, 2, 3].map((n) => condition(step(n), []))).toEqual([false, true, true]);
    expect(condition.name).toBe('stepCountIs(2)');
  });

  test("hasToolCall(name) holds for a step whose reply called that tool, whatever the call's outcome", () => {
    const condition = hasToolCall('submit_answer');
    expect(condition(step(1, ['get_weather']), [])).toBe(false);
    expect(condition(step(1, ['get_weather', 'submit_answer']), [])).toBe(true);
    expect(condition.name).toBe('hasToolCall("submit_answer")');
  });

  test('a count or a name no step can match is refused when the condition is made', () => {
    expect(() => stepCountIs(0)).toThrow('stepCountIs: count must be an integer >= 1, got 0');
    expect(() => stepCountIs(1.5)).toThrow(RangeError);
    expect(() => hasToolCall('')).toThrow('hasToolCall: name must be a tool name, got ""');
  });
});
