import type { Context } from 'hono';
import type { ConversationScope } from '../conversation/conversation-scope.js';
import type { ExtensionHost } from '../conversation/extension-host.js';
import type { SessionSetup } from '../conversation/session-setup.js';
import type { SessionStore } from '../conversation/session-store.js';
import type { StreamPace } from '../model/stream-pace-options.js';
import type { Clock } from '../time/clock.js';
import type { RequestHooks } from './request-hooks.js';

/** What every route handler shares. */
export interface ServerContext {
  sessions: SessionStore;
  setup: SessionSetup;
  clock: Clock;
  /** The default scope: a request whose hooks carry no scope is in it (its model answers it). */
  scope: ConversationScope;
  host: ExtensionHost | undefined;
  heartbeatTimeoutMs: number;
  maxBodyBytes: number;
  /** The pace of a session's replies: its own (`server.setPace(pace, { sessionId })`), else the server's. */
  pace?: (sessionId: string) => StreamPace | undefined;
}

/**
 * Hono environment: the authenticated user's name and the request id as variables; the hooks a
 * wrapper hands each request as bindings (`c.env`, empty when none were given).
 */
export interface AppEnv {
  Variables: { user: string; requestId: string };
  Bindings: RequestHooks;
}

/** The scope a request belongs to: the one its hooks carry, else the default scope. */
export function scopeOf(c: Context<AppEnv>, ctx: ServerContext): ConversationScope {
  return c.env.scope ?? ctx.scope;
}
