import type { ExtensionHost } from '../conversation/extension-host.js';
import type { SessionSetup } from '../conversation/session-setup.js';
import type { SessionStore } from '../conversation/session-store.js';
import type { Model } from '../model/model.js';
import type { StreamPace } from '../model/stream-pace.js';
import type { Clock } from '../time/clock.js';
import type { RequestHooks } from './request-hooks.js';

/** What every route handler shares. */
export interface ServerContext {
  sessions: SessionStore;
  setup: SessionSetup;
  clock: Clock;
  /** Read per request: `server.setModel` swaps it between requests. */
  model: Model;
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
