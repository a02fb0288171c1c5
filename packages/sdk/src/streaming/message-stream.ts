import type { WithResponse } from '../core/api-promise.js';
import type { OpenResponse } from '../core/http-client.js';
import { APIUserAbortError, ParleyError, REQUEST_ID_HEADER } from '../errors/index.js';
import { AbortLink } from '../internal/forward-abort.js';
import type { StreamRecovery } from '../recovery/stream-recovery.js';
import type { MessageReply } from '../wire/index.js';
import { BodyReader } from './body-reader.js';
import type { MessageStreamStart } from './message-stream-start.js';
import { type MessageSnapshot, ReplyAccumulator } from './reply-accumulator.js';
import { ListenerFailure, type MessageStreamEvents, StreamConsumers } from './stream-consumers.js';
import { isExceptionEvent, type StreamEventItem } from './stream-events.js';
import { StreamProgress } from './stream-progress.js';
import { type FromReadableStreamOptions, relayBody, relayedStart } from './stream-relay.js';
import { StreamResults } from './stream-results.js';
import type { AnyToolInputs, ToolInputDeltaMaker, ToolInputMap } from './tool-input-delta.js';

/**
 * A streamed reply: an `AsyncIterable` of typed events as they arrive, an event emitter, and
 * promises for the final reply. Events are parsed incrementally from the response body.
 *
 * The request starts at once; the body is read from the first use (iteration, `.on()`, or any
 * `final*()` call), so iterate or listen from the start to see every event. A `for await` loop
 * that falls behind pauses the reading while it has `defaults.stream.highWaterMark` (1024) events
 * waiting, until it is down to `defaults.stream.lowWaterMark` (256). Listeners (`.on`) are called
 * as events are parsed. The caller's `signal` is let go of once the stream ends or aborts, or its
 * request fails before anything reads it (with `recover`, until something does).
 */
export class MessageStream<M extends ToolInputMap = AnyToolInputs>
  extends StreamResults
  implements AsyncIterable<StreamEventItem>
{
  readonly #controller = new AbortController();
  readonly #opening: Promise<OpenResponse>;
  readonly #reader: BodyReader;
  readonly #fallbackSessionId: string | undefined;
  readonly #consumers = new StreamConsumers();
  readonly #accumulator: ReplyAccumulator;
  #done: Promise<MessageReply> | undefined;
  #sessionId: string | undefined;
  #response: Response | undefined;
  #reply: MessageReply | undefined;
  readonly #progress = new StreamProgress(() => this.requestId);
  readonly #link: AbortLink;
  /** Set with the `partialInput` option: turns a tool input fragment into a `toolInputDelta`. */
  readonly #deltas: ToolInputDeltaMaker | undefined;
  /** Set with the `recover` option: loaded on first use. */
  readonly #recovery: Promise<StreamRecovery> | undefined;
  /** The recovery, once it took over: it completes the reply. */
  #recovered: StreamRecovery | undefined;

  private constructor(start: MessageStreamStart<M>) {
    super();
    const { open, timeouts, signal: userSignal, sessionId, partialInput } = start;
    this.#consumers.observer = start.observer;
    this.#fallbackSessionId = sessionId;
    this.#recovery = start.recovery;
    const deltas = partialInput?.deltas();
    this.#deltas = deltas;
    this.#reader = new BodyReader({
      timeouts,
      signal: this.#controller.signal,
      progress: this.#progress,
      queued: () => this.#consumers.queued(),
      sessionId: (id) => {
        this.#sessionId = id;
      },
      event: (raw) => this.#handle(raw),
    });
    this.#link = new AbortLink(userSignal, this.#controller);
    this.#opening = open(this.#controller.signal);
    this.#opening.catch(() => this.#done === undefined && this.#link.release()); // the class's last sentence
    const broken = (message: string, cause?: unknown) => this.#progress.broken(message, cause);
    this.#accumulator = new ReplyAccumulator(this.#consumers.accumulatorCallbacks(broken, deltas));
  }

  /** @internal Starts a streamed request (see {@link MessageStreamStart}): `client.messages.stream`. */
  static start<M extends ToolInputMap = AnyToolInputs>(start: MessageStreamStart<M>): MessageStream<M> {
    return new MessageStream<M>(start);
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
    return new MessageStream<M>(relayedStart(body, options));
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
    return this.#listen(event, listener as MessageStreamEvents[E], false);
  }

  /** Adds a listener called at most once. */
  once<E extends keyof MessageStreamEvents<M>>(event: E, listener: MessageStreamEvents<M>[E]): this {
    return this.#listen(event, listener as MessageStreamEvents[E], true);
  }

  /** Removes a listener. */
  off<E extends keyof MessageStreamEvents<M>>(event: E, listener: MessageStreamEvents<M>[E]): this {
    this.#consumers.remove(event, listener as MessageStreamEvents[E]);
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
  override finalReply(): Promise<MessageReply> {
    return this.#ensureStarted();
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEventItem> {
    const queue = this.#consumers.iterate(
      () => {
        // Leaving the loop early cancels the request.
        if (!this.#consumers.ended)
          this.#controller.abort(new APIUserAbortError('Stream iteration was stopped'));
      },
      () => this.#reader.drained(),
    );
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

  #listen<E extends keyof MessageStreamEvents>(
    event: E,
    listener: MessageStreamEvents[E],
    once: boolean,
  ): this {
    if (event === 'toolInputDelta' && !this.#deltas) {
      throw new ParleyError(
        "toolInputDelta needs the partialInput option (from '@parley/sdk/partial-input')",
      );
    }
    this.#consumers.add(event, listener, once);
    this.#ensureStarted();
    return this;
  }

  #ensureStarted(): Promise<MessageReply> {
    if (!this.#done) {
      if (this.#recovery) this.#link.resume();
      this.#done = this.#run().then(
        (reply) => {
          this.#finish(undefined);
          return reply;
        },
        (error: unknown) => {
          const failure = this.#progress.failure(error, this.#controller.signal.aborted);
          this.#finish(failure);
          throw failure;
        },
      );
      this.#done.catch(() => {});
    }
    return this.#done;
  }

  async #run(): Promise<MessageReply> {
    let opening = this.#opening;
    for (;;) {
      try {
        const open = await opening;
        this.#response = open.response;
        const body = open.response.body;
        if (!body) throw this.#progress.broken('The streamed response has no body');
        await this.#reader.read(body);
        if (!this.#reply) throw this.#progress.broken('The stream ended without replyStop');
        return this.#reply;
      } catch (error) {
        // With `recover`: what the session holds, or a resume to read; without, the error.
        const recovery = await this.#recovery;
        if (!recovery || error instanceof ListenerFailure || this.aborted) throw error;
        const headers = this.#response !== undefined;
        const next = await recovery.next(
          this.#progress.failure(error, false),
          { headers, streamed: this.#accumulator.messages },
          this.#controller.signal,
        );
        this.#recovered = recovery;
        this.#response = undefined;
        this.#progress.eventCount = 0;
        this.#consumers.recovered(next.attempt);
        if ('reply' in next) return this.#complete(next.reply);
        opening = next.opening;
      }
    }
  }

  #complete(reply: MessageReply): MessageReply {
    this.#reply = this.#recovered?.complete(reply) ?? reply;
    this.#consumers.emit('reply', this.#reply);
    return this.#reply;
  }

  #handle(raw: unknown): void {
    const item = this.#progress.read(raw);
    this.#consumers.deliver(item);
    if (isExceptionEvent(item)) throw this.#progress.exception(item);
    this.#accumulator.apply(item);
    if (item.type === 'replyStop') {
      const { type: _type, ...fields } = item;
      const sessionId = this.#sessionId ?? this.#fallbackSessionId;
      if (sessionId === undefined) throw this.#progress.broken('The stream body has no sessionId');
      this.#complete({ ...fields, sessionId });
    }
  }

  #finish(failure: Error | undefined): void {
    if (this.#consumers.ended) return;
    this.#link.release();
    if (failure) this.#controller.abort(failure);
    this.#consumers.finish(failure, this.#reply ? undefined : failure);
  }
}
