// `runToolLoop({ resume: true })`: take over a session's open turn from a process that died.
import { APIError } from '../../errors/index.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { Message, PendingTool, ToolCall, ToolCallState, ToolUseBlock } from '../../wire/index.js';
import { heartbeatIntervalMs } from '../run/heartbeat.js';
import type { ToolRunResult } from '../run/tool-run-result.js';
import type { RunToolLoopOptions, ToolLoopClient } from './tool-loop-options.js';
import type { ToolLoopReattach } from './tool-loop-run.js';

/** Runs calls of the open turn as a step would (concurrency, exclusive tools, heartbeats). */
export type RunCalls = (
  calls: readonly PendingTool[],
  attempts: ReadonlyMap<string, number>,
) => Promise<ToolRunResult[]>;

/** What re-attaching came to: nothing to do, or a turn to resume with `{}`. */
export type Reattached = { open: false; messages: Message[] } | { open: true; reattached: ToolLoopReattach };

const TERMINAL: ReadonlySet<ToolCallState> = new Set(['COMPLETE', 'ERROR', 'ABANDONED']);

/**
 * Reads the session and settles its open turn: claims the calls no live worker holds, waits for
 * the ones another worker is beating (claiming any whose lease goes stale meanwhile), and leaves
 * the settled ones alone. Resolves once every client call of the turn is settled. A session whose
 * last live message is an answer (or that has none) has nothing open; one whose last live message
 * is the user's has a reply to ask for again (resume with `{}`: the server retries it).
 */
export async function reattach(
  client: ToolLoopClient,
  options: RunToolLoopOptions,
  signal: AbortSignal,
  runCalls: RunCalls,
): Promise<Reattached> {
  const { sessionId } = options;
  const exportMessages = client.messages.export;
  const getCall = client.tools.get;
  if (!exportMessages || !getCall) {
    throw new TypeError(
      'runToolLoop: resume needs a client with messages.export and tools.get (a Parley client)',
    );
  }
  const messages = await exportMessages.call(client.messages, sessionId, {}, { signal });
  const live = messages.filter((m) => m.deletedAt === null);
  const last = live.at(-1);
  const found: ToolLoopReattach = { claimed: [], skipped: [], completed: [], toolResults: [] };
  // No conversation yet (none, or only system messages): nothing to resume.
  if (last === undefined || live.every((m) => m.role === 'system')) return { open: false, messages: live };
  if (last.role !== 'assistant') return { open: true, reattached: found };
  const uses = last.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
  if (uses.length === 0) return { open: false, messages: live };

  const read = async (requestId: string): Promise<ToolCall | undefined> => {
    try {
      return await getCall.call(client.tools, sessionId, requestId, { signal });
    } catch (error) {
      // A server tool's call: the service settles it itself.
      if (error instanceof APIError && error.status === 404) return undefined;
      throw error;
    }
  };
  const claim = async (calls: ToolCall[]): Promise<void> => {
    if (calls.length === 0) return;
    found.claimed.push(...calls);
    const attempts = new Map(calls.map((c) => [c.requestId, c.lastHeartbeatAt === null ? 1 : 2]));
    found.toolResults.push(...(await runCalls(calls.map(pendingOf), attempts)));
  };

  const toClaim: ToolCall[] = [];
  let waiting: ToolCall[] = [];
  for (const use of uses) {
    const call = await read(use.id);
    if (call === undefined) continue;
    if (TERMINAL.has(call.state)) found.completed.push(call);
    else if (call.state === 'PROCESSING') waiting.push(call);
    else toClaim.push(call);
  }
  found.skipped.push(...waiting);
  await claim(toClaim);
  // Another worker holds these: check on them once per heartbeat interval until they settle.
  const pollMs = heartbeatIntervalMs(options.heartbeatTimeoutMs);
  while (waiting.length > 0) {
    await sleep(pollMs, signal);
    const stale: ToolCall[] = [];
    const still: ToolCall[] = [];
    for (const { requestId } of waiting) {
      const call = await read(requestId);
      if (call === undefined || TERMINAL.has(call.state)) continue;
      (call.state === 'PROCESSING' ? still : stale).push(call);
    }
    waiting = still;
    await claim(stale);
  }
  return { open: true, reattached: found };
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
