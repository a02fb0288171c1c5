import type { Customizations, Message, ToolCall } from '@parley/protocol';
import type { Session, SessionStore } from '../conversation/session-store.js';

/** A session as `GET /_parley/sessions` shows it: everything, retracted messages included. */
export interface SessionSnapshot {
  sessionId: string;
  user: string;
  createdAt: number;
  customizations: Customizations;
  agentId: string | undefined;
  modelId: string | undefined;
  /** A reply is running. */
  busy: boolean;
  messages: Message[];
  /** The client tool calls of the session, in the order the model asked for them. */
  toolCalls: ToolCall[];
}

/** Every session of a scope (or one user's there), oldest first, for inspection. */
export function snapshotSessions(store: SessionStore, user?: string, scope?: string): SessionSnapshot[] {
  return [...store.all()]
    .filter((session) => (user === undefined || session.owner === user) && session.scope === scope)
    .sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq)
    .map(snapshot);
}

function snapshot(session: Session): SessionSnapshot {
  const toolCalls: ToolCall[] = [];
  for (const use of session.messages.toolUses()) {
    const record = session.toolCalls.get(use.id);
    if (record !== undefined) toolCalls.push(session.toolCalls.view(record));
  }
  return {
    sessionId: session.id,
    user: session.owner,
    createdAt: session.createdAt,
    customizations: session.customizations,
    agentId: session.agentId,
    modelId: session.modelId,
    busy: session.reply !== undefined,
    messages: structuredClone(session.messages.all()),
    toolCalls,
  };
}
