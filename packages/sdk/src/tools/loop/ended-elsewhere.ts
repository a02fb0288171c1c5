import type { Message } from '../../wire/index.js';
import { lastAssistantText } from './last-assistant-text.js';
import type { ToolLoopReattach, ToolLoopResult, ToolLoopStep } from './tool-loop-run.js';
import { sumUsage } from './usage-budget.js';

/**
 * The result of a re-attaching run whose turn another process holds (`held_elsewhere`) or that found
 * it settled (`done`): no message of its own, the session's last assistant text, no cost of its own.
 */
export function endedElsewhere(
  status: 'held_elsewhere' | 'done',
  sessionId: string,
  live: readonly Message[],
  steps: ToolLoopStep[],
  price: unknown,
  reattached: ToolLoopReattach | undefined,
): ToolLoopResult {
  return {
    status,
    sessionId,
    messages: [],
    finalText: lastAssistantText(live),
    steps,
    stopReason: undefined,
    usage: sumUsage(steps),
    ...(price !== undefined && { cost: 0 }),
    ...(reattached && { reattached }),
  };
}
