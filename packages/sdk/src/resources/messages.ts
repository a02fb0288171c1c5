import { APIPromise } from '../core/api-promise.js';
import type { HttpClient, RequestOptions } from '../core/http-client.js';
import { ExportMessagesShape, MessageReplyShape, RewindShape } from '../core/response-shapes.js';
import { backoffMs } from '../core/retry-policy.js';
import { loadOnce } from '../internal/load-once.js';
import { pathSegment } from '../internal/path.js';
import { warnUnknownOptions } from '../internal/unknown-options.js';
import { checkId } from '../internal/wrong-value.js';
import type { RecoverOptions } from '../recovery/recover-options.js';
import type { RecoveryClient } from '../recovery/recovery-call.js';
import type { StreamTimeouts } from '../streaming/body-reader.js';
import { MessageStream } from '../streaming/message-stream.js';
import type { AnyToolInputs, PartialInput, ToolInputMap } from '../streaming/tool-input-delta.js';
import { tracedStream } from '../streaming/traced-stream.js';
import { activeContext } from '../tracing/active-context.js';
import type {
  ExportMessagesResponse,
  Message,
  MessageReply,
  RewindRequest,
  RewindResponse,
  UserContentBlock,
} from '../wire/index.js';

/** Body of `send` / `stream`: the user's turn, or nothing to resume after tool calls. */
export interface SendMessageParams {
  content?: string | UserContentBlock[];
}

/** Options of `client.messages.send`. */
export interface SendRequestOptions extends RequestOptions {
  /**
   * Recover a reply that fails after the request was sent (model error, 5xx, timeout, dropped
   * connection): read the session, then use the completed reply or resume, with backoff. `true`
   * takes the defaults. See docs/sdk.md, "Recovery".
   */
  recover?: true | RecoverOptions | undefined;
}

/** Options of `client.messages.stream`. */
export interface StreamRequestOptions<M extends ToolInputMap = AnyToolInputs> extends SendRequestOptions {
  /** Longest wait for the first event once the headers are in (ms); client default otherwise. */
  firstEventTimeoutMs?: number;
  /** Longest gap between two chunks of the body (ms); client default otherwise. */
  idleTimeoutMs?: number;
  /**
   * Parses tool input as it streams, for `toolInputDelta` (`partialInput()` from
   * `@parley/sdk/partial-input`, which carries the JSON parser).
   */
  partialInput?: PartialInput<M>;
}

// The recovery of the `recover` option, loaded with the first call that asks for it.
const loadRecoveringSend = loadOnce(() => import('../recovery/recovering-send.js'));
const loadStreamRecovery = loadOnce(() => import('../recovery/stream-recovery.js'));

/** Params of `client.messages.export`. */
export interface ExportMessagesParams {
  /** Also the retracted messages. Default false. */
  includeDeleted?: boolean;
}

/** `client.messages`: send, stream, export and rewind the messages of a session. */
export class Messages {
  readonly #http: HttpClient;
  readonly #streamDefaults: StreamTimeouts;
  /** What the `recover` option sends and reads with: this resource, `client.tools`, the retries' backoff. */
  readonly #recovery: RecoveryClient;

  /** @internal The client makes its resources. */
  constructor(http: HttpClient, streamDefaults: StreamTimeouts, tools: RecoveryClient['tools']) {
    this.#http = http;
    this.#streamDefaults = streamDefaults;
    this.#recovery = { messages: this, tools, backoff: backoffMs };
  }

  /**
   * Sends the user's turn (or resumes with `{}`) and waits for the whole reply. Sent again (up to
   * `maxRetries` times) only when it provably was not processed: the connection was refused or the
   * host not found (nothing was sent), or the service answered `429` (it refuses a send over quota
   * before storing anything; the wait is its `Retry-After`). Never after a timeout, a dropped
   * connection or a 5xx: the message may have landed (see the `recover` option).
   *
   * @example
   * ```ts
   * const reply = await client.messages.send(sessionId, { content: 'What is the weather in Paris?' });
   * if (reply.stopReason === 'tool_use') console.log(reply.pendingTools);
   * ```
   */
  send(sessionId: string, body: SendMessageParams, options?: SendRequestOptions): APIPromise<MessageReply> {
    checkId(sessionId, 'messages.send()', 'sessionId');
    warnUnknownOptions(options, 'messages.send()');
    if (options?.recover) {
      // `recover` is taken off here, once: the recovery sends and reads with the rest.
      const { recover, ...requestOptions } = options;
      // Traced, its requests are children of the context active now (they are sent later).
      if (this.#http.tracer) requestOptions.traceContext ??= activeContext();
      const call = { sessionId, body, options: requestOptions, recover };
      return new APIPromise(loadRecoveringSend().then((r) => r.sendWithRecovery(this.#recovery, call)));
    }
    return this.#http.request<MessageReply>(
      {
        method: 'POST',
        path: `v1/messages/${pathSegment(sessionId, 'messages.send()', 'sessionId')}`,
        body,
        idempotent: false,
        shape: MessageReplyShape,
      },
      options,
    );
  }

  /**
   * Sends the user's turn and streams the reply (sent again only as `send` is: refused connection,
   * unknown host, `429`). The request starts at once; iterate the events,
   * listen with `.on(...)`, or await `finalReply()` / `finalText()`. A stream you stop caring about
   * should be `abort()`ed (or left with `break`): an unread body keeps its connection open and
   * the server's reply open until the reply ends.
   *
   * @example
   * ```ts
   * const stream = client.messages.stream(sessionId, { content: 'Tell me a story' });
   * stream.on('text', (delta) => process.stdout.write(delta));
   * const reply = await stream.finalReply();
   * ```
   */
  stream<M extends ToolInputMap = AnyToolInputs>(
    sessionId: string,
    body: SendMessageParams,
    options: StreamRequestOptions<M> = {},
  ): MessageStream<M> {
    checkId(sessionId, 'messages.stream()', 'sessionId');
    warnUnknownOptions(options, 'messages.stream()');
    const { firstEventTimeoutMs, idleTimeoutMs, partialInput, recover, traceContext, ...requestOptions } =
      options;
    const tracer = this.#http.tracer;
    // With a tracer, the stream's span is a child of `traceContext`, else of the context active now,
    // and each request of the stream a child of the span.
    const traced = tracer && tracedStream(tracer, sessionId, traceContext ?? activeContext(), !recover);
    const send = (sent: SendMessageParams, signal: AbortSignal) =>
      this.#http.open(
        {
          method: 'POST',
          path: `v1/messages/${pathSegment(sessionId, 'messages.stream()', 'sessionId')}/stream`,
          body: sent,
          idempotent: false,
        },
        { ...requestOptions, signal },
      );
    const open = (sent: SendMessageParams, signal: AbortSignal) =>
      traced ? traced.open(() => send(sent, signal)) : send(sent, signal);
    // With `recover`, the recovery opens the stream and takes over failures.
    const recovery =
      recover &&
      loadStreamRecovery().then((r) =>
        r.streamRecovery(this.#recovery, { sessionId, body, options: requestOptions, recover }, open),
      );
    return MessageStream.start<M>({
      open: recovery ? (signal) => recovery.then((r) => r.open(signal)) : (signal) => open(body, signal),
      recovery,
      observer: traced ? traced.observer : undefined,
      timeouts: {
        firstEventTimeoutMs: firstEventTimeoutMs ?? this.#streamDefaults.firstEventTimeoutMs,
        idleTimeoutMs: idleTimeoutMs ?? this.#streamDefaults.idleTimeoutMs,
      },
      signal: requestOptions.signal,
      sessionId,
      partialInput,
    });
  }

  /**
   * Exports the conversation in index order (the `messages` array of the response); retracted
   * messages only with `includeDeleted: true`.
   *
   * @example
   * ```ts
   * const messages = await client.messages.export(sessionId, { includeDeleted: true });
   * ```
   */
  export(
    sessionId: string,
    params: ExportMessagesParams = {},
    options?: RequestOptions,
  ): APIPromise<Message[]> {
    warnUnknownOptions(params, 'messages.export() params');
    warnUnknownOptions(options, 'messages.export()');
    return this.#http
      .request<ExportMessagesResponse>(
        {
          method: 'GET',
          path: `v1/messages/${pathSegment(sessionId, 'messages.export()', 'sessionId')}`,
          ...(params.includeDeleted !== undefined
            ? { query: { includeDeleted: String(params.includeDeleted) } }
            : {}),
          idempotent: true,
          shape: ExportMessagesShape,
        },
        options,
      )
      .map((body) => body.messages);
  }

  /**
   * Retracts the user message at `index` and everything after it ("edit and retry"); open tool
   * calls it cuts off are abandoned. Sent again only when it provably was not processed (a refused
   * connection, an unknown host, a `429`), never after a timeout or a 5xx.
   *
   * @example
   * ```ts
   * const { retracted } = await client.messages.rewind(sessionId, 2);
   * ```
   */
  rewind(sessionId: string, index: number, options?: RequestOptions): APIPromise<RewindResponse> {
    warnUnknownOptions(options, 'messages.rewind()');
    return this.#http.request<RewindResponse>(
      {
        method: 'POST',
        path: `v1/messages/${pathSegment(sessionId, 'messages.rewind()', 'sessionId')}/rewind`,
        body: { index } satisfies RewindRequest,
        idempotent: false,
        shape: RewindShape,
      },
      options,
    );
  }
}
