import type { Message, ToolResultBlock, ToolUseBlock } from '@parley/protocol';
import { HttpError } from '../http-error.js';
import type { Session } from './session-store.js';
import { isTerminal, type ToolCallRecord } from './tool-call-store.js';

/** Where a conversation stands, from its live messages. */
export type ConversationState =
  | { kind: 'empty' }
  /** The last live message is an assistant message without tool_use blocks. */
  | { kind: 'answered' }
  /** The last live message is a user (or system) message with no answer yet. */
  | { kind: 'unanswered' }
  /** The last live message asked for tools; `open` are the client calls not settled yet. */
  | { kind: 'tools'; message: Message; toolUses: ToolUseBlock[]; open: ToolCallRecord[] };

/** What a send does, decided before the reply starts. */
export type SendPlan =
  | { kind: 'content' }
  | { kind: 'resume-tools'; toolUses: ToolUseBlock[] }
  | { kind: 'retry' };

export function liveMessages(session: Session): Message[] {
  return session.messages.live();
}

export function toolUsesOf(message: Message): ToolUseBlock[] {
  return message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

/**
 * Whether the conversation has not started: no live message other than `system` messages (a new
 * session, or one rewound to its first user message). Retrieval prefetch runs for the next user
 * message of an empty conversation; a resume of one is `409 nothing_to_resume`.
 */
export function isEmptyConversation(session: Session): boolean {
  const { messages } = session;
  for (let i = 0; i < messages.length; i++) {
    if (messages.isLiveAt(i) && messages.roleAt(i) !== 'system') return false;
  }
  return true;
}

export function conversationState(session: Session): ConversationState {
  if (isEmptyConversation(session)) return { kind: 'empty' };
  const position = session.messages.lastLivePosition();
  if (position < 0) return { kind: 'empty' };
  if (session.messages.roleAt(position) !== 'assistant') return { kind: 'unanswered' };
  const last = session.messages.at(position);
  const toolUses = toolUsesOf(last);
  if (toolUses.length === 0) return { kind: 'answered' };
  const open: ToolCallRecord[] = [];
  for (const use of toolUses) {
    const call = session.toolCalls.get(use.id);
    if (call !== undefined && !isTerminal(session.toolCalls.stateOf(call))) open.push(call);
  }
  return { kind: 'tools', message: last, toolUses, open };
}

/**
 * Checks the conversation rules of docs/protocol.md ("Send") and says what the send will do.
 * Throws the 409s: reply_in_progress, tool_calls_open, resume_required, nothing_to_resume.
 */
export function planSend(session: Session, hasContent: boolean): SendPlan {
  assertNoReplyRunning(session);
  const state = conversationState(session);
  if (state.kind === 'tools' && state.open.length > 0) {
    const openToolCalls = state.open.map((c) => ({
      requestId: c.requestId,
      name: c.name,
      state: session.toolCalls.stateOf(c),
    }));
    throw new HttpError(
      'tool_calls_open',
      `Tool calls of the last turn are not settled: ${openToolCalls.map((c) => `${c.name} (${c.requestId}, ${c.state})`).join(', ')}`,
      { details: { openToolCalls } },
    );
  }
  if (hasContent) {
    if (state.kind === 'tools') {
      throw new HttpError(
        'resume_required',
        'The tool calls of the last turn are settled: resume (send without content) before a new user message',
      );
    }
    return { kind: 'content' };
  }
  if (state.kind === 'tools') return { kind: 'resume-tools', toolUses: state.toolUses };
  if (state.kind === 'unanswered') return { kind: 'retry' };
  throw new HttpError(
    'nothing_to_resume',
    state.kind === 'empty'
      ? 'The session has no messages to resume'
      : 'The last turn was answered and asked for no tools: send content instead',
  );
}

/**
 * `409 reply_in_progress` while a reply runs in the session, naming it: when it started (server
 * clock) and whether it is streamed.
 */
export function assertNoReplyRunning(session: Session): void {
  if (session.reply === undefined) return;
  const info = session.replyInfo;
  const what =
    info === undefined
      ? 'A reply'
      : `A ${info.streamed ? 'streamed' : 'buffered'} reply (started at ${new Date(info.startedAt).toISOString()})`;
  throw new HttpError(
    'reply_in_progress',
    `${what} is still running in session ${session.id}: wait until it ends, then try again`,
    {
      details: {
        sessionId: session.id,
        ...(info === undefined ? {} : { startedAt: info.startedAt, streamed: info.streamed }),
      },
    },
  );
}

/** The tool_result block answering `use`, from its tool call or the stored server tool result. */
export function toolResultFor(session: Session, use: ToolUseBlock): ToolResultBlock {
  const stored = session.serverToolResults.get(use.id);
  if (stored !== undefined) return stored;
  const call = session.toolCalls.get(use.id);
  if (call === undefined) {
    return errorResult(use.id, `Tool call ${use.name} was interrupted before it returned a result`);
  }
  const state = session.toolCalls.stateOf(call);
  if (state === 'COMPLETE') {
    const { state: _state, ...fields } = call.response ?? {};
    return {
      type: 'tool_result',
      tool_use_id: use.id,
      content: [{ type: 'json', json: fields }],
      is_error: false,
    };
  }
  if (state === 'ERROR') return errorResult(use.id, call.error ?? 'The tool failed');
  return errorResult(use.id, call.error ?? 'Tool call abandoned');
}

export function errorResult(toolUseId: string, text: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: toolUseId, content: [{ type: 'text', text }], is_error: true };
}
