import {
  CreateSessionResponseSchema,
  type Customizations,
  ListSessionsResponseSchema,
  type SessionSummary,
} from '@parley/protocol';
import type { HttpClient, RequestOptions } from '../core/http-client.js';
import { pathSegment } from '../internal/path.js';

/** Body of `client.sessions.create`: one of the three variants (Simple, Full, Minimal). */
export interface CreateSessionParams {
  customizations?: Customizations;
}

/** `client.sessions`: create, list and delete conversation sessions. */
export class Sessions {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Creates a session. Without a body it is a Minimal session that uses the default agent.
   * Never retried automatically (a repeat would create a second session).
   *
   * @example
   * ```ts
   * const { sessionId } = await client.sessions.create({ customizations: { agentId: 'support' } });
   * ```
   */
  create(body: CreateSessionParams = {}, options?: RequestOptions): Promise<{ sessionId: string }> {
    return this.#http.request(
      { method: 'POST', path: 'v1/sessions', body, idempotent: false, schema: CreateSessionResponseSchema },
      options,
    );
  }

  /**
   * Lists the caller's sessions, newest first (the `sessions` array of the response).
   *
   * @example
   * ```ts
   * for (const { sessionId, createdAt } of await client.sessions.list()) console.log(sessionId, createdAt);
   * ```
   */
  async list(options?: RequestOptions): Promise<SessionSummary[]> {
    const body = await this.#http.request(
      { method: 'GET', path: 'v1/sessions', idempotent: true, schema: ListSessionsResponseSchema },
      options,
    );
    return body.sessions;
  }

  /**
   * Deletes a session with its messages and tool calls (a running reply is aborted).
   *
   * @example
   * ```ts
   * await client.sessions.delete(sessionId);
   * ```
   */
  async delete(sessionId: string, options?: RequestOptions): Promise<void> {
    await this.#http.request(
      { method: 'DELETE', path: `v1/sessions/${pathSegment(sessionId)}`, idempotent: true },
      options,
    );
  }
}
