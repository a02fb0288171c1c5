// `runToolLoop({ reattach: true })`: take over a session's open turn from a process that died.
import { APIError } from '../../errors/index.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { Message, PendingTool, ToolCall, ToolCallState, ToolUseBlock } from '../../wire/index.js';
import { Heartbeat, heartbeatIntervalMs } from '../run/heartbeat.js';
import type { ToolRunResult } from '../run/tool-run-result.js';
import type { RunToolLoopOptions, ToolLoopClient } from './tool-loop-options.js';
import type { ToolLoopReattach } from './tool-loop-run.js';

/** A call this run holds: its heartbeat (started by the claim), its attempt and its lifetime's start. */
export interface HeldCall {
  heartbeat: Heartbeat;
  /** `ctx.attempt`: the server's count under the lease extension, else 1 or 2 from the call's past. */
  attempt?: number | undefined;
  /**
   * When the call's reply would have arrived on this machine's clock: its lifetime (and so its
   * approval wait and time limit) ends at `receivedAt + deadlineAt - createdAt`, its `deadlineAt`
   * on the server's clock.
   */
  receivedAt: number;
}

/** Runs calls of the open turn as a step would (concurrency, exclusive tools), with their heartbeats. */
export type RunCalls = (
  calls: readonly PendingTool[],
  held: ReadonlyMap<string, HeldCall>,
) => Promise<ToolRunResult[]>;

/**
 * What re-attaching came to: nothing to do; a turn to resume with `{}`; or a turn another process
 * holds (it claimed every open call, or settled them while this run waited): nothing to resume here.
 */
export type Reattached =
  | { open: false; messages: Message[] }
  | { open: true; reattached: ToolLoopReattach; elsewhere: boolean };

const TERMINAL: ReadonlySet<ToolCallState> = new Set(['COMPLETE', 'ERROR', 'ABANDONED']);

/**
 * Reads the session and settles its open turn: claims the calls no live worker holds, waits for
 * the ones another worker holds (claiming any whose lease lapses meanwhile), and leaves the
 * settled ones alone. A claim is a heartbeat with the run's lease token: the call runs here only
 * once that beat holds it; under the lease extension a beat on a call another token holds is
 * refused (`409 tool_call_leased`), so of several processes re-attaching at once each call runs in
 * exactly one. Resolves once every client call of the turn is settled. A session whose last live
 * message is an answer (or that has none) has nothing open; one whose last live message is the
 * user's has a reply to ask for again (resume with `{}`: the server retries it).
 */
export async function reattach(
  client: ToolLoopClient,
  options: RunToolLoopOptions,
  leaseToken: string,
  signal: AbortSignal,
  runCalls: RunCalls,
): Promise<Reattached> {
  const { sessionId } = options;
  const exportMessages = client.messages.export;
  const getCall = client.tools.get;
  if (!exportMessages || !getCall) {
    throw new TypeError(
      'runToolLoop: reattach needs a client with messages.export and tools.get (a Parley client)',
    );
  }
  const messages = await exportMessages.call(client.messages, sessionId, {}, { signal });
  const live = messages.filter((m) => m.deletedAt === null);
  const last = live.at(-1);
  const found: ToolLoopReattach = {
    claimed: [],
    heldElsewhere: [],
    completed: [],
    toolResults: [],
    skipped: [],
  };
  // No conversation yet (none, or only system messages): nothing to resume.
  if (last === undefined || live.every((m) => m.role === 'system')) return { open: false, messages: live };
  if (last.role !== 'assistant') return { open: true, reattached: found, elsewhere: false };
  const uses = last.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
  if (uses.length === 0) return { open: false, messages: live };

  const readById = async (requestId: string): Promise<Read | undefined> => {
    try {
      return await readCall(client, getCall, sessionId, requestId, signal);
    } catch (error) {
      // A server tool's call: the service settles it itself.
      if (error instanceof APIError && error.status === 404) return undefined;
      throw error;
    }
  };
  /** Claims `calls` at once; runs those this run now holds; returns those another worker holds. */
  const claim = async (calls: Read[]): Promise<Read[]> => {
    const attempts = await Promise.all(
      calls.map((read) => claimOne(client, options, leaseToken, signal, read)),
    );
    const held = new Map<string, HeldCall>();
    const mine: ToolCall[] = [];
    const others: Read[] = [];
    let failed: { error: unknown } | undefined;
    for (const [i, attempt] of attempts.entries()) {
      const read = calls[i] as Read;
      if (attempt.kind === 'held') {
        held.set(read.call.requestId, attempt.held);
        mine.push(read.call);
      } else if (attempt.kind === 'leased') others.push(read);
      else if (attempt.kind === 'settled') settledElsewhere.push(read.call.requestId);
      else failed ??= { error: attempt.error };
    }
    if (failed) {
      // Let go of the calls this batch did claim: their leases lapse, and another worker takes them.
      await Promise.all([...held.values()].map(({ heartbeat }) => heartbeat.stop()));
      throw failed.error;
    }
    if (mine.length > 0) {
      found.claimed.push(...mine);
      found.toolResults.push(...(await runCalls(mine.map(pendingOf), held)));
    }
    return others;
  };
  const settledElsewhere: string[] = [];

  const toClaim: Read[] = [];
  let waiting: Read[] = [];
  for (const use of uses) {
    const read = await readById(use.id);
    if (read === undefined) continue;
    if (TERMINAL.has(read.call.state)) found.completed.push(read.call);
    else if (read.call.state === 'PROCESSING') waiting.push(read);
    else toClaim.push(read);
  }
  found.skipped.push(...waiting.map((r) => r.call));
  waiting.push(...(await claim(toClaim)));
  const firstSeenHeld = new Set(waiting.map((r) => r.call.requestId));
  // Another worker holds these: check on them once per heartbeat interval until they settle.
  const pollMs = heartbeatIntervalMs(options.heartbeatTimeoutMs);
  while (waiting.length > 0) {
    await sleep(pollMs, signal);
    const lapsed: Read[] = [];
    const still: Read[] = [];
    for (const { call: seen } of waiting) {
      const read = await readById(seen.requestId);
      if (read === undefined) continue;
      if (TERMINAL.has(read.call.state)) {
        found.heldElsewhere.push(read.call);
        continue;
      }
      // PENDING: the holder's lease lapsed (a send's pickup lapses like a beat).
      (read.call.state === 'PROCESSING' ? still : lapsed).push(read);
    }
    waiting = [...still, ...(await claim(lapsed))];
  }
  // Calls settled by another worker as this run tried to claim them.
  for (const requestId of settledElsewhere) {
    const read = await readById(requestId);
    if (read !== undefined) found.heldElsewhere.push(read.call);
  }
  // Every open call was another worker's, and that worker settled it: the turn is its to resume.
  const elsewhere = found.claimed.length === 0 && (firstSeenHeld.size > 0 || settledElsewhere.length > 0);
  return { open: true, reattached: found, elsewhere };
}

/** A call as read, with when it was read on this machine's clock and the server's (its `Date` header). */
interface Read {
  call: ToolCall;
  /** This machine's `Date.now()` when the answer arrived. */
  localAt: number;
  /** The server's clock then, from its `Date` header (rounded up to the second), when it sent one. */
  serverAt: number | undefined;
}

async function readCall(
  client: ToolLoopClient,
  getCall: NonNullable<ToolLoopClient['tools']['get']>,
  sessionId: string,
  requestId: string,
  signal: AbortSignal,
): Promise<Read> {
  const pending = getCall.call(client.tools, sessionId, requestId, { signal });
  if (hasWithResponse(pending)) {
    const { data, response } = await pending.withResponse();
    const localAt = Date.now();
    const date = Date.parse(response.headers.get('date') ?? '');
    // `Date` has whole seconds: the server's clock is within the second after it. The later end
    // leaves less time, never more.
    return { call: data, localAt, serverAt: Number.isFinite(date) ? date + 1_000 : undefined };
  }
  const call = await pending;
  return { call, localAt: Date.now(), serverAt: undefined };
}

function hasWithResponse(value: PromiseLike<ToolCall>): value is PromiseLike<ToolCall> & {
  withResponse(): Promise<{ data: ToolCall; response: Response }>;
} {
  return typeof (value as { withResponse?: unknown }).withResponse === 'function';
}

type ClaimAttempt =
  | { kind: 'held'; held: HeldCall }
  | { kind: 'leased' }
  | { kind: 'settled' }
  | { kind: 'failed'; error: unknown };

/** One claim: a heartbeat with the run's token, started now; the call is this run's once a beat holds it. */
async function claimOne(
  client: ToolLoopClient,
  options: RunToolLoopOptions,
  leaseToken: string,
  signal: AbortSignal,
  read: Read,
): Promise<ClaimAttempt> {
  const { call } = read;
  const heartbeat = new Heartbeat(client.tools, {
    sessionId: options.sessionId,
    requestId: call.requestId,
    heartbeatTimeoutMs: options.heartbeatTimeoutMs,
    signal,
    random: options.random,
    leaseToken,
  }).start();
  const claim = await heartbeat.claimed;
  if (claim.held) {
    const { lease } = claim;
    // The call's lifetime on the server's clock: from the lease's answer, else the read's `Date`,
    // else (no clock from the server) this machine's.
    const serverNow = lease?.now ?? read.serverAt;
    const localNow = lease ? Date.now() : read.localAt;
    const receivedAt = serverNow === undefined ? call.createdAt : localNow - (serverNow - call.createdAt);
    const attempt = lease?.attempt ?? (call.lastHeartbeatAt === null ? 1 : 2);
    return { kind: 'held', held: { heartbeat, attempt, receivedAt } };
  }
  await heartbeat.stop();
  if (signal.aborted) return { kind: 'failed', error: signal.reason };
  const error = claim.error;
  // Another worker holds it, or no beat got through in time (a slow network or a starved process):
  // not this run's now; tried again at the next look.
  if (error?.reason === 'LEASED' || error?.reason === 'TIMED_OUT') return { kind: 'leased' };
  if (error?.reason === 'ABANDONED') return { kind: 'settled' };
  if (error?.reason === 'NOT_FOUND') return { kind: 'settled' };
  return { kind: 'failed', error };
}

/** A call read from the server, as the entry of `pendingTools` a reply would have had. */
function pendingOf(call: ToolCall): PendingTool {
  const { requestId, name, input, state, createdAt, deadlineAt } = call;
  return { requestId, name, input, state, createdAt, deadlineAt };
}

async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await raceSignal(
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
      signal,
    );
  } finally {
    clearTimeout(timer);
  }
}
