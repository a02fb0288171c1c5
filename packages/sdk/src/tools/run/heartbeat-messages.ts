// The words of the heartbeat timer's errors: a lost call, and a beat that ran out of time.
import type { ToolCallLostReason } from '../../errors/index.js';

/** The message of the `ToolCallLostError` a lost call's handler signal aborts with. */
export function lostMessage(
  reason: ToolCallLostReason,
  sessionId: string,
  requestId: string,
  timeoutMs: number,
): string {
  const call = `Tool call ${requestId} (session ${sessionId})`;
  switch (reason) {
    case 'ABANDONED':
      return `${call} is already settled or abandoned: the server answered a heartbeat with 409`;
    case 'NOT_FOUND':
      return `${call} no longer exists: the server answered a heartbeat with 404`;
    case 'LEASED':
      return `${call} is held by another worker: the server answered with 409 tool_call_leased (its lease is live)`;
    case 'TIMED_OUT':
      return `${call} was given up locally: no heartbeat succeeded for ${timeoutMs} ms`;
  }
}

/**
 * Why a beat timed out. When its deadline timer fired late by more than a whole interval, the beat
 * did not get slow: the event loop was blocked (a handler computing without awaiting), and the
 * message says so and points to the way out.
 */
export function beatTimeoutMessage(deadlineMs: number, intervalMs: number, elapsedMs: number): string {
  const late = Math.round(elapsedMs - deadlineMs);
  if (late <= intervalMs) return `Heartbeat timed out after ${deadlineMs} ms`;
  return (
    `Heartbeat timed out after ${deadlineMs} ms, but its timer fired ${late} ms late: the event loop was ` +
    'blocked (synchronous work on the main thread), so no beat could go out. Run CPU-bound tool handlers ' +
    'in a worker (workerHandler, see docs/tool-workers.md) or let them await between chunks of work'
  );
}
