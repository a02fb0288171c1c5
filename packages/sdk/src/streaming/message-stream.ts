import type { WithResponse } from '../core/api-promise.js';
import { DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS, DEFAULT_STREAM_IDLE_TIMEOUT_MS } from '../core/defaults.js';
import type { OpenResponse } from '../core/http-client.js';
import {
  APIUserAbortError,
  isParleyError,
  ParleyError,
  REQUEST_ID_HEADER,
  ToolInputParseError,
} from '../errors/index.js';
import type { Message, MessageReply, PendingTool, StopReason } from '../wire/index.js';
import { BodyReader, type StreamTimeouts } from './body-reader.js';
import { EventQueue } from './event-queue.js';
import { errorFromRelay, RELAYED_ERROR_KIND } from './relayed-error.js';
import { type MessageSnapshot, ReplyAccumulator } from './reply-accumulator.js';
import { decodeStreamEvent, isExceptionEvent, type StreamEventItem } from './stream-events.js';
import { ListenerFailure, type MessageStreamEvents, StreamListeners } from './stream-listeners.js';
import { StreamProgress } from './stream-progress.js';
import { type FromReadableStreamOptions, relayBody } from './stream-relay.js';
import type { AnyToolInputs, PartialInput, ToolInputDeltaMaker, ToolInputMap } from './tool-input-delta.js';

export type { StreamTimeouts } from './body-reader.js';
export type { MessageStreamEvents } from './stream-listeners.js';
export type { FromReadableStreamOptions } from './stream-relay.js';
export type {
  AnyToolInputs,
  DeepPartial,
  PartialInput,
  ToolInputDelta,
  ToolInputDeltaOf,
  ToolInputMap,
} from './tool-input-delta.js';

const noop = () => {};

/**
 * A streamed reply: an `AsyncIterable` of typed events as they arrive, an event emitter, and
 * promises for the final reply. Events are parsed incrementally from the response body.
 *
 * The request starts at once; the body is read from the first use (iteration, `.on()`, or any
 * `final*()` call), so iterate or listen from the start to see every event. A `for await` loop
 * that falls behind pauses the reading: the body is not pulled while the loop has
 * `defaults.stream.highWaterMark` (1024) events waiting, and reading resumes once it is down to
 * `defaults.stream.lowWaterMark` (256). Listeners (`.on`) are called as events are parsed.
 */
export class MessageStream<M extends ToolInputMap = AnyToolInputs> implements AsyncIterable<StreamEventItem> {
  readonly #controller = new AbortController();
  readonly #opening: Promise<OpenResponse>;
  readonly #reader: BodyReader;
  readonly #fallbackSessionId: string | undefined;
  readonly #listeners = new StreamListeners();
  readonly #accumulator: ReplyAccumulator;
  readonly #iterators = new Set<EventQueue>();
  #done: Promise<MessageReply> | undefined;
  #sessionId: string | undefined;
  #response: Response | undefined;
  #reply: MessageReply | undefined;
  readonly #progress = new StreamProgress(() => this.requestId);
  #ended = false;
  #failure: Error | undefined;
  /** Stops listening to the caller's signal. */
  #unlink: (() => void) | undefined;
  /** Set with the `partialInput` option: turns a tool input fragment into a `toolInputDelta`. */
  readonly #deltas: ToolInputDeltaMaker | undefined;

  private constructor(
    open: (signal: AbortSignal) => Promise<OpenResponse>,
    timeouts: StreamTimeouts,
    userSignal: AbortSignal | undefined,
    sessionId: string | undefined,
    partialInput?: PartialInput<ToolInputMap>,
  ) {
    this.#fallbackSessionId = sessionId;
    const deltas = partialInput?.deltas();
    this.#deltas = deltas;
    this.#reader = new BodyReader({
      timeouts,
      signal: this.#controller.signal,
      eventCount: () => this.#progress.eventCount,
      queued: () => this.#queued(),
      sessionId: (id) => {
        this.#sessionId = id;
      },
      event: (raw) => this.#handle(raw),
      received: () => this.#progress.received(),
      broken: (message, cause) => this.#progress.broken(message, cause),
    });
    if (userSignal?.aborted) this.#controller.abort(userSignal.reason);
    else if (userSignal) {
      // Removed once the stream ends or aborts: an app-wide signal must not hold every stream.
      const onAbort = () => this.#controller.abort(userSignal.reason);
      userSignal.addEventListener('abort', onAbort, { once: true });
      this.#unlink = () => userSignal.removeEventListener('abort', onAbort);
      this.#controller.signal.addEventListener('abort', this.#unlink, { once: true });
    }
    this.#opening = open(this.#controller.signal);
    this.#opening.catch(noop);
    this.#accumulator = new ReplyAccumulator({
      text: (delta, snapshot) => this.#listeners.emit('text', delta, snapshot),
      toolUse: (block) => this.#listeners.emit('toolUse', block),
      message: (message) => this.#listeners.emit('message', message),
      ...(deltas && {
        toolInput: (block, fragment) => {
          const delta = deltas(block, fragment);
          if (delta) this.#listeners.emit('toolInputDelta', delta);
        },
      }),
    });
  }

  /**
   * Starts a streamed request. `open` sends it with the given signal (aborted by `abort()`,
   * `break`, or `userSignal`). Used by `client.messages.stream`.
   */
  static start<M extends ToolInputMap = AnyToolInputs>(
    open: (signal: AbortSignal) => Promise<OpenResponse>,
    timeouts: StreamTimeouts,
    userSignal?: AbortSignal,
    sessionId?: string,
    partialInput?: PartialInput<M>,
  ): MessageStream<M> {
    return new MessageStream<M>(
      open,
      timeouts,
      userSignal,
      sessionId,
      partialInput as PartialInput<ToolInputMap>,
    );
  }

  /**
   * Reads a body that {@link MessageStream.toReadableStream} wrote (in a browser, from the route
   * of your server that relays a stream): the same events, the same final reply, and the other
   * side's failure as the same error class (`NotFoundError`, `StreamError`, ...). Aborting this
   * stream cancels the body.
   *
   * @example
   * ```ts
   * const response = await fetch('/api/chat', { method: 'POST', body: JSON.stringify({ content: 'Hi' }) });
   * const stream = MessageStream.fromReadableStream(response.body!);
   * stream.on('text', (delta) => output.append(delta));
   * ```
   */
  static fromReadableStream<M extends ToolInputMap = AnyToolInputs>(
    body: ReadableStream<Uint8Array>,
    options: FromReadableStreamOptions<M> = {},
  ): MessageStream<M> {
    return new MessageStream<M>(
      // Only the response is read from a relayed body's opening.
      async () => ({ response: new Response(body) }) as OpenResponse,
      {
        firstEventTimeoutMs: options.firstEventTimeoutMs ?? DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS,
        idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
      },
      options.signal,
      undefined,
      options.partialInput as PartialInput<ToolInputMap> | undefined,
    );
  }

  /** The session id from the body, once read. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The HTTP response, once its headers arrived. */
  get response(): Response | undefined {
    return this.#response;
  }

  /** The server's `x-request-id`, once the response headers arrived. */
  get requestId(): string | undefined {
    return this.#response?.headers.get(REQUEST_ID_HEADER) ?? undefined;
  }

  /** Messages rebuilt from the events so far, in index order (including the echoed user message). */
  get messages(): MessageSnapshot[] {
    return this.#accumulator.messages;
  }

  /** Aborted by `abort()`, `break`, or the caller's signal. */
  get aborted(): boolean {
    return this.#controller.signal.aborted;
  }

  /**
   * Waits for the response headers: the stream itself (still to be read) with the response's
   * status, headers and request id. Rejects like the request (an `APIError` for a non-2xx status).
   *
   * @example
   * ```ts
   * const { data: stream, requestId } = await client.messages.stream(sessionId, { content: 'Hi' }).withResponse();
   * ```
   */
  async withResponse(): Promise<WithResponse<MessageStream<M>>> {
    const { response } = await this.#opening;
    this.#response = response;
    return { data: this, response, requestId: response.headers.get(REQUEST_ID_HEADER) ?? undefined };
  }

  /**
   * Adds a listener. Listening starts reading the body.
   *
   * @example
   * ```ts
   * stream.on('text', (delta) => process.stdout.write(delta)).on('error', (e) => console.error(e));
   * ```
   */
  on<E extends keyof MessageStreamEvents<M>>(event: E, listener: MessageStreamEvents<M>[E]): this {
    if (event === 'toolInputDelta') this.#requireDeltas();
    this.#listeners.add(event, listener as MessageStreamEvents[E], false);
    this.#ensureStarted();
    return this;
  }

  /** Adds a listener called at most once. */
  once<E extends keyof MessageStreamEvents<M>>(event: E, listener: MessageStreamEvents<M>[E]): this {
    if (event === 'toolInputDelta') this.#requireDeltas();
    this.#listeners.add(event, listener as MessageStreamEvents[E], true);
    this.#ensureStarted();
    return this;
  }

  /** Removes a listener. */
  off<E extends keyof MessageStreamEvents<M>>(event: E, listener: MessageStreamEvents<M>[E]): this {
    this.#listeners.remove(event, listener as MessageStreamEvents[E]);
    return this;
  }

  /** Cancels the request. Pending promises and iteration reject with `APIUserAbortError`. */
  abort(): void {
    this.#controller.abort(new APIUserAbortError('Stream was aborted'));
  }

  /**
   * The complete reply (from `replyStop`), the same shape as `client.messages.send` returns.
   *
   * @example
   * ```ts
   * const { stopReason, pendingTools } = await client.messages.stream(sessionId, { content: 'Hi' }).finalReply();
   * ```
   */
  finalReply(): Promise<MessageReply> {
    return this.#ensureStarted();
  }

  /** The messages this call appended, in index order (authoritative copies from `replyStop`). */
  async finalMessages(): Promise<Message[]> {
    return (await this.finalReply()).messages;
  }

  /** The text of the reply's last assistant message (its text blocks joined). */
  async finalText(): Promise<string> {
    const { messages } = await this.finalReply();
    const last = messages.filter((m) => m.role === 'assistant').at(-1);
    if (!last) return '';
    return last.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  }

  /** Why the model stopped (`end_turn`, `tool_use`, ...). */
  async stopReason(): Promise<StopReason> {
    return (await this.finalReply()).stopReason;
  }

  /** The client tool calls to fulfil before resuming; same shape as the buffered reply's. */
  async pendingTools(): Promise<PendingTool[]> {
    return (await this.finalReply()).pendingTools;
  }

  /** Resolves when the stream is over; rejects with its error. */
  async done(): Promise<void> {
    await this.finalReply();
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEventItem> {
    const queue = new EventQueue(
      () => {
        this.#iterators.delete(queue);
        // Leaving the loop early cancels the request.
        if (!this.#ended) this.#controller.abort(new APIUserAbortError('Stream iteration was stopped'));
      },
      () => this.#reader.drained(),
    );
    if (this.#ended) queue.finish(this.#reply ? undefined : this.#failure);
    else this.#iterators.add(queue);
    this.#ensureStarted();
    return queue;
  }

  /**
   * The stream as a body to send on (from a server route to a browser): the protocol's streamed
   * document, one event per line, and, when the stream fails here, a last `parleyError` event
   * that {@link MessageStream.fromReadableStream} turns back into the same error. Call it before
   * reading the stream otherwise; cancelling the body aborts the stream.
   *
   * @example
   * ```ts
   * const stream = client.messages.stream(sessionId, { content });
   * return new Response(stream.toReadableStream(), { headers: { 'content-type': 'application/json' } });
   * ```
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    return relayBody(this[Symbol.asyncIterator](), () => this.#sessionId ?? this.#fallbackSessionId);
  }

  #requireDeltas(): void {
    if (!this.#deltas)
      throw new ParleyError(
        "toolInputDelta needs the partialInput option (from '@parley/sdk/partial-input')",
      );
  }

  #ensureStarted(): Promise<MessageReply> {
    if (!this.#done) {
      this.#done = this.#run().then(
        (reply) => {
          this.#finish(undefined);
          return reply;
        },
        (error: unknown) => {
          const failure = this.#normalize(error);
          this.#finish(failure);
          throw failure;
        },
      );
      this.#done.catch(noop);
    }
    return this.#done;
  }

  async #run(): Promise<MessageReply> {
    const open = await this.#opening;
    this.#response = open.response;
    const body = open.response.body;
    if (!body) throw this.#progress.broken('The streamed response has no body');
    await this.#reader.read(body);
    if (!this.#reply) throw this.#progress.broken('The stream ended without replyStop');
    return this.#reply;
  }

  /** The most events any `for await` loop has waiting. */
  #queued(): number {
    let most = 0;
    for (const queue of this.#iterators) most = Math.max(most, queue.size);
    return most;
  }

  #handle(raw: unknown): void {
    const decoded = decodeStreamEvent(raw);
    if (!decoded.ok) throw this.#progress.invalid(decoded.kind, decoded.issues, decoded.payload);
    const item = decoded.item;
    // Only `toReadableStream()` writes this kind: the failure of the stream it relayed.
    if (item.type === 'unknown' && item.kind === RELAYED_ERROR_KIND) {
      throw errorFromRelay(item.payload, this.#progress.eventCount);
    }
    this.#progress.delivered(item);
    for (const queue of this.#iterators) queue.push(item);
    this.#listeners.emit('event', item);
    if (isExceptionEvent(item)) throw this.#progress.exception(item);
    try {
      this.#accumulator.apply(item);
    } catch (cause) {
      if (cause instanceof ToolInputParseError) throw this.#progress.broken(cause.message, cause);
      throw cause;
    }
    if (item.type === 'replyStop') {
      const { type: _type, ...fields } = item;
      const sessionId = this.#sessionId ?? this.#fallbackSessionId;
      if (sessionId === undefined) throw this.#progress.broken('The stream body has no sessionId');
      this.#reply = { ...fields, sessionId };
      this.#listeners.emit('reply', this.#reply);
    }
  }

  #normalize(error: unknown): Error {
    if (error instanceof ListenerFailure) return error.error;
    if (isParleyError(error)) return error;
    if (this.#controller.signal.aborted) return this.#progress.aborted(error);
    const detail = error instanceof Error ? error.message : String(error);
    return this.#progress.broken(`The stream broke: ${detail}`, error);
  }

  #finish(failure: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = failure;
    this.#unlink?.();
    if (failure) this.#controller.abort(failure);
    for (const queue of this.#iterators) queue.finish(failure);
    this.#iterators.clear();
    // A throwing 'error' or 'end' listener must not turn into an unhandled rejection.
    try {
      if (failure) this.#listeners.emit('error', failure);
    } catch {}
    try {
      this.#listeners.emit('end');
    } catch {}
  }
}
