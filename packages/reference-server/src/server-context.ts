import type { Clock } from './clock.js';
import type { ExtensionHost } from './extension-host.js';
import type { Model } from './model/model.js';
import type { SessionSetup } from './session-setup.js';
import type { SessionStore } from './session-store.js';
import type { RequestScope } from './testing/request-pipeline.js';

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
}

/** Hono environment: the authenticated user's name; the testing toolkit's per-request scope. */
export interface AppEnv {
  Variables: { user: string };
  Bindings: RequestScope;
}
