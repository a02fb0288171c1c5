import type { APIPromise } from '../core/api-promise.js';
import type { HttpClient, RequestOptions } from '../core/http-client.js';
import { CreateSessionShape, ListSessionsShape } from '../core/response-shapes.js';
import { pathSegment } from '../internal/path.js';
import { warnUnknownOptions } from '../internal/unknown-options.js';
import { wrongValue } from '../internal/wrong-value.js';
import type { AnyTool } from '../tools/define/define-tool.js';
import { type DeclaredTools, SessionTools, withTools } from '../tools/loop/session-tools.js';
import type { Customizations, ListSessionsResponse, SessionSummary } from '../wire/index.js';

/** Body of `client.sessions.create`: one of the three variants (Simple, Full, Minimal), and tools. */
export interface CreateSessionParams {
  customizations?: Customizations;
  /**
   * Client tools made with `defineTool`: sent as `customizations.extensions.tools` and remembered
   * for the session, so `client.runToolLoop({ sessionId })` runs them without listing them again.
   */
  tools?: readonly AnyTool[];
}

/** `client.sessions`: create, list and delete conversation sessions. */
export class Sessions {
  readonly #http: HttpClient;
  readonly #tools = new SessionTools();
  /** @internal The client makes its resources. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Creates a session. Without a body it is a Minimal session that uses the default agent.
   * `tools` (from `defineTool`) are declared under `customizations.extensions.tools` and
   * remembered, with the session's other client tools, for `runToolLoop`. Sent again only when it
   * provably was not processed (a refused connection, an unknown host, a `429` before anything was
   * stored), never after a timeout or a 5xx: a repeat could create a second session.
   *
   * @example
   * ```ts
   * const { sessionId } = await client.sessions.create({ customizations: { agentId: 'support' }, tools: [getWeather] });
   * ```
   */
  create(body: CreateSessionParams = {}, options?: RequestOptions): APIPromise<{ sessionId: string }> {
    warnUnknownOptions(body, 'sessions.create() body');
    warnUnknownOptions(options, 'sessions.create()');
    const { tools = [], ...rest } = body;
    if (!Array.isArray(tools)) throw wrongValue('sessions.create()', 'tools', 'an array of tools', tools);
    const customizations = tools.length > 0 ? withTools(rest.customizations, tools) : rest.customizations;
    const wire = customizations === undefined ? rest : { ...rest, customizations };
    return this.#http
      .request<{ sessionId: string }>(
        { method: 'POST', path: 'v1/sessions', body: wire, idempotent: false, shape: CreateSessionShape },
        options,
      )
      .map((data) => {
        this.#tools.remember(data.sessionId, customizations, tools);
        return data;
      });
  }

  /**
   * The client tools of a session this client created: every declared name, and the defined tools
   * passed as `tools`. `undefined` for a session created elsewhere (or forgotten: a client remembers
   * its last 1000 sessions).
   */
  declaredTools(sessionId: string): DeclaredTools | undefined {
    return this.#tools.get(sessionId);
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
    warnUnknownOptions(options, 'sessions.list()');
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
    const path = `v1/sessions/${pathSegment(sessionId, 'sessions.delete()', 'sessionId')}`;
    warnUnknownOptions(options, 'sessions.delete()');
    this.#tools.forget(sessionId);
    return this.#http.request<void>({ method: 'DELETE', path, idempotent: true }, options);
  }
}
