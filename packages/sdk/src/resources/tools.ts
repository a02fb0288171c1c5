import type { APIPromise } from '../core/api-promise.js';
import type { HttpClient, RequestOptions } from '../core/http-client.js';
import { ToolCallShape } from '../core/response-shapes.js';
import { loadOnce } from '../internal/load-once.js';
import { pathSegment } from '../internal/path.js';
import { warnUnknownOptions } from '../internal/unknown-options.js';
import type { AnyTool } from '../tools/define/define-tool.js';
import type { RunToolOptions } from '../tools/run/run-tool.js';
import type { ToolRunResult } from '../tools/run/tool-run-result.js';
import type { HeartbeatRequest, ToolCall, ToolResponseRequest } from '../wire/index.js';

// `runTool` (with the heartbeat), loaded with the first `client.tools.run`.
const loadRunTool = loadOnce(() => import('../tools/run/run-tool.js'));

/** `client.tools`: report on the client tool calls a reply stopped for. */
export class Tools {
  readonly #http: HttpClient;
  /** @internal The client makes its resources. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Sends one liveness beat (`{ state: 'PROCESSING', heartbeat: Date.now() }`): the call is yours
   * for `heartbeatTimeoutMs`. Retried on connection errors, 408, 429 and 5xx (a repeat is harmless).
   * With a `parley-lease` token in `headers` on a server that offers the lease extension
   * (docs/protocol.md) the answer's `parley-lease-state` header (see `withResponse()`) names the
   * lease, and a beat on a call another token holds rejects with `ConflictError` code
   * `tool_call_leased`.
   *
   * @example
   * ```ts
   * await client.tools.heartbeat(sessionId, pending.requestId);
   * ```
   */
  heartbeat(sessionId: string, requestId: string, options?: RequestOptions): APIPromise<void> {
    return this.#http.request<void>(
      {
        method: 'POST',
        path: this.#path('tools.heartbeat()', options, 'request', sessionId, requestId, '/heartbeat'),
        body: { state: 'PROCESSING', heartbeat: Date.now() } satisfies HeartbeatRequest,
        idempotent: true,
      },
      options,
    );
  }

  /**
   * Completes a call with its output; the fields reach the model as JSON. Retried like a
   * heartbeat: an identical repeat is answered 200 and changes nothing.
   *
   * @example
   * ```ts
   * await client.tools.respond(sessionId, pending.requestId, { temperatureC: 18 });
   * ```
   */
  respond(
    sessionId: string,
    requestId: string,
    output: Record<string, unknown>,
    options?: RequestOptions,
  ): APIPromise<void> {
    return this.#http.request<void>(
      {
        method: 'POST',
        path: this.#path('tools.respond()', options, 'response', sessionId, requestId),
        body: { response: { ...output, state: 'COMPLETE' } } satisfies ToolResponseRequest,
        idempotent: true,
      },
      options,
    );
  }

  /**
   * Fails a call; the model sees `message` and may adjust. Retried like a heartbeat (an identical
   * repeat is answered 200).
   *
   * @example
   * ```ts
   * await client.tools.fail(sessionId, pending.requestId, 'City not found');
   * ```
   */
  fail(sessionId: string, requestId: string, message: string, options?: RequestOptions): APIPromise<void> {
    return this.#http.request<void>(
      {
        method: 'POST',
        path: this.#path('tools.fail()', options, 'request', sessionId, requestId, '/heartbeat'),
        body: { state: 'ERROR', error: message } satisfies HeartbeatRequest,
        idempotent: true,
      },
      options,
    );
  }

  /**
   * Reads one tool call as the server sees it now (state, lease, settlement).
   *
   * @example
   * ```ts
   * const call = await client.tools.get(sessionId, requestId);
   * if (call.state === 'COMPLETE') console.log('already answered');
   * ```
   */
  get(sessionId: string, requestId: string, options?: RequestOptions): APIPromise<ToolCall> {
    return this.#http.request<ToolCall>(
      {
        method: 'GET',
        path: this.#path('tools.get()', options, 'request', sessionId, requestId),
        idempotent: true,
        shape: ToolCallShape,
      },
      options,
    );
  }

  /**
   * Runs one pending call with `tool`: heartbeats start at once and run beside the handler, the
   * input is checked against the tool's schema, and the result (or the error) is reported. See
   * `runTool` for the details and the result statuses.
   *
   * @example
   * ```ts
   * const reply = await client.messages.send(sessionId, { content: 'Weather in Paris?' });
   * for (const pending of reply.pendingTools) {
   *   await client.tools.run(sessionId, pending, getWeather, { heartbeatTimeoutMs: reply.heartbeatTimeoutMs });
   * }
   * ```
   */
  run<TTool extends AnyTool>(
    sessionId: string,
    pending: RunToolOptions['pending'],
    tool: TTool,
    options?: Omit<RunToolOptions, 'sessionId' | 'pending' | 'tool'>,
  ): Promise<ToolRunResult<TTool>> {
    return loadRunTool().then(({ runTool }) =>
      runTool(this, { tracer: this.#http.tracer, ...options, sessionId, pending, tool }),
    );
  }

  /** The path of a call's endpoint, once its ids and options are checked (`where` names the method). */
  #path(
    where: string,
    options: RequestOptions | undefined,
    kind: 'request' | 'response',
    sessionId: string,
    requestId: string,
    suffix = '',
  ): string {
    const path = `v1/tools/${kind}/${pathSegment(sessionId, where, 'sessionId')}/${pathSegment(requestId, where, 'requestId')}${suffix}`;
    warnUnknownOptions(options, where);
    return path;
  }
}
