// A re-attached turn another process took: the resume's 409s that say so, and what the run reports.
import { ConflictError } from '../../errors/index.js';
import type { Message } from '../../wire/index.js';
import type { ToolLoopClient } from './tool-loop-options.js';

/**
 * The 409s a resume gets when another process resumed the turn first: its reply is running, its
 * reply answered (nothing to resume), or its reply asked for tools that are now open.
 */
export function isTakenTurn(error: unknown): boolean {
  return (
    error instanceof ConflictError &&
    (error.code === 'reply_in_progress' ||
      error.code === 'nothing_to_resume' ||
      error.code === 'tool_calls_open')
  );
}

/** The session's live messages, as the run reports them when another process holds the turn. */
export async function liveMessages(
  client: ToolLoopClient,
  sessionId: string,
  signal: AbortSignal,
): Promise<Message[]> {
  const messages = (await client.messages.export?.(sessionId, {}, { signal })) ?? [];
  return messages.filter((m) => m.deletedAt === null);
}
