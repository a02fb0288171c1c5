import type { ContentBlock, Customizations } from '@parley/protocol';
import type { ServerTool } from './server-tool.js';

/** What the server tells an {@link ExtensionHost} about a session. */
export interface SessionInfo {
  sessionId: string;
  /** Name of the user who owns the session. */
  userName: string;
  /** The session's customizations as created (`{}` for a body-less session). */
  customizations: Customizations;
  /** The agent the session resolves to (the default agent for Minimal sessions); undefined for Full. */
  agentId: string | undefined;
  /** The foundation model of a Full session. */
  modelId: string | undefined;
}

/**
 * Hooks through which extensions (document retrieval, gateway tool providers, quotas) plug into the
 * reference server. Every member is optional; the server works without a host.
 *
 * Throw an `HttpError` (from `http-error.ts`) to reject a request with a protocol error code;
 * anything else thrown is reported as an internal error (validateSession, checkQuota) or a model
 * failure (prefetch, inside a reply).
 */
export interface ExtensionHost {
  /**
   * Validates `customizations.extensions` when a session is created, after the schema and the
   * agent, model and provider names were checked. Throw `HttpError` (`unknown_index`, ...) to refuse.
   */
  validateSession?(customizations: Customizations): void | Promise<void>;
  /**
   * Server tools the model may call in this session, asked at every model call. They run inside the
   * reply; their names must not collide with the session's client tools (client tools win).
   */
  serverTools?(session: SessionInfo): readonly ServerTool[] | Promise<readonly ServerTool[]>;
  /**
   * Context to inject before the first user message of a session (retrieval prefetch). Called once,
   * when the session has no live message yet; a non-empty result is stored as a `system` message
   * whose index comes just before the user message. Return undefined (or `[]`) for nothing.
   */
  prefetch?(session: SessionInfo, userText: string, signal: AbortSignal): Promise<ContentBlock[] | undefined>;
  /**
   * Whether {@link prefetch} may inject anything for this session. Optional: `false` skips the call
   * (and the `AbortSignal` it would need); without it, `prefetch` is always called.
   */
  prefetches?(session: SessionInfo): boolean;
  /**
   * Called before every send (new content or resume), after the request was validated. Throw
   * `HttpError('quota_exceeded', ..., { details: { retryAfterSeconds } })` to answer 429 with a
   * `Retry-After` header.
   */
  checkQuota?(session: SessionInfo): void | Promise<void>;
  /** Called after a session was deleted, so the host can drop per-session state. */
  sessionDeleted?(sessionId: string): void;
  /**
   * Called by a full `server.reset()` (not by a reset of one user): put back the state that requests
   * changed (quota windows, a provider's data), so the next test starts as the first did.
   */
  reset?(): void;
}
