// Leases that lapsed while a loop held its call, read from the server's journal (arrival times, on
// the server's clock): a call lapsed when, between its first renewal and its response, the server
// went a whole lease without a beat (the call read PENDING: another process could have claimed it).
// A renewal is a beat the server answered 200 and, with `leasedSend` (the lease extension's send,
// which picks the call up), the send that created the call.

interface Entry {
  time: number;
  path: string;
  sessionId?: string;
  response?: { status: number };
}

export interface LeaseLapses {
  /** Calls answered with a response (the ones counted). */
  calls: number;
  /** Calls whose lease lapsed at least once before their response. */
  lapsed: number;
  /** The lapses' total length past the lease, ms (how long the calls read PENDING). */
  pendingMs: number;
}

/** The bench's loops have one call per session, so a session's entries are its call's. */
export function leaseLapses(entries: readonly Entry[], leaseMs: number, leasedSend: boolean): LeaseLapses {
  const calls = new Map<string, { renewals: number[]; respondedAt?: number }>();
  for (const { sessionId, path, time, response } of entries) {
    if (sessionId === undefined || response?.status !== 200) continue;
    const call = calls.get(sessionId) ?? { renewals: [] };
    calls.set(sessionId, call);
    if (path.endsWith('/heartbeat')) call.renewals.push(time);
    else if (path.startsWith('/v1/tools/response/')) call.respondedAt ??= time;
    // The session's first send created the call.
    else if (leasedSend && path === `/v1/messages/${sessionId}` && call.renewals.length === 0)
      call.renewals.push(time);
  }
  const result: LeaseLapses = { calls: 0, lapsed: 0, pendingMs: 0 };
  for (const { renewals, respondedAt } of calls.values()) {
    if (respondedAt === undefined || renewals.length === 0) continue;
    result.calls++;
    const times = [...renewals.filter((t) => t <= respondedAt).sort((a, b) => a - b), respondedAt];
    const late = times.slice(1).reduce((sum, t, i) => sum + Math.max(0, t - (times[i] ?? t) - leaseMs), 0);
    if (late > 0) result.lapsed++;
    result.pendingMs += late;
  }
  return result;
}
