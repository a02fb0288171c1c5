import { APITimeoutError } from '../../errors/index.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { HeartbeatLease } from '../../wire/index.js';
import { beatTimeoutMessage } from './heartbeat-messages.js';
import { LEASE_TOKEN_HEADER, leaseFromAnswer } from './tool-lease.js';
import type { ToolTransport } from './tool-transport.js';

/**
 * Sends one beat of a call and resolves with the lease a server with the lease extension names in
 * its answer (undefined otherwise); rejects with the beat's failure. The beat has its own deadline,
 * `deadlineMs` from its send (the local timeout), not the lease's end: a slow answer still renews
 * (the server renews on receipt), the next beat has gone out beside it by then, and cutting it off
 * would cost its keep-alive connection. The deadline is enforced here as well as given to the
 * transport, so a transport that ignores `timeoutMs` cannot hold the timer up; `controller` aborts it.
 */
export async function sendBeat(
  transport: Pick<ToolTransport, 'heartbeat'>,
  call: { sessionId: string; requestId: string },
  request: { maxRetries: number; headers?: Record<string, string> },
  controller: AbortController,
  { deadlineMs, intervalMs }: { deadlineMs: number; intervalMs: number },
): Promise<HeartbeatLease | undefined> {
  const sentAt = Date.now();
  const timedOut = () => new APITimeoutError(beatTimeoutMessage(deadlineMs, intervalMs, Date.now() - sentAt));
  const deadline = setTimeout(() => controller.abort(timedOut()), deadlineMs);
  try {
    const sent = transport.heartbeat(call.sessionId, call.requestId, {
      ...request,
      signal: controller.signal,
      timeoutMs: deadlineMs,
    });
    return await raceSignal(leaseFromAnswer(sent, request.headers?.[LEASE_TOKEN_HEADER]), controller.signal);
  } finally {
    clearTimeout(deadline);
  }
}
