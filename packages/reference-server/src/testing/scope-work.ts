import { conversationState } from '../conversation/conversation-state.js';
import type { SessionStore } from '../conversation/session-store.js';

/**
 * Whether test scope `scope` has work in flight: a session of it with a reply running (a stream
 * being written included) or a client tool call not settled yet (pending or leased, waiting for
 * its result). Such a scope is in use however long ago its last request came.
 */
export function hasWorkInFlight(sessions: SessionStore, scope: string): boolean {
  for (const session of sessions.all()) {
    if (session.scope !== scope) continue;
    if (session.reply !== undefined) return true;
    const state = conversationState(session);
    if (state.kind === 'tools' && state.open.length > 0) return true;
  }
  return false;
}
