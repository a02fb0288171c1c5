import type { APIPromise } from '../core/api-promise.js';
import type { HttpClient, RequestOptions } from '../core/http-client.js';
import { CreateSessionShape, ListSessionsShape } from '../core/response-shapes.js';
import { pathSegment } from '../internal/path.js';
import type { Customizations, ListSessionsResponse, SessionSummary } from '../wire/index.js';

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
  create(body: CreateSessionParams = {}, options?: RequestOptions): APIPromise<{ sessionId: string }> {
    return this.#http.request(
      { method: 'POST', path: 'v1/sessions', body, idempotent: false, shape: CreateSessionShape },
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
  list(options?: RequestOptions): APIPromise<SessionSummary[]> {
    return this.#http
      .request<ListSessionsResponse>(
        { method: 'GET', path: 'v1/sessions', idempotent: true, shape: ListSessionsShape },
        options,
      )
      .map((body) => body.sessions);
  }

  /**
   * Deletes a session with its messages and tool calls (a running reply is aborted).
   *
   * @example
   * ```ts
   * await client.sessions.delete(sessionId);
   * ```
   */
  delete(sessionId: string, options?: RequestOptions): APIPromise<void> {
    return this.#http.request<void>(
      { method: 'DELETE', path: `v1/sessions/${pathSegment(sessionId)}`, idempotent: true },
      options,
    );
  }
}
