import type { Message, MessageReply, PendingTool, StopReason, ToolUseBlock } from '@parley/protocol';
import type { OpenResponse } from '../core/http-client.js';
import {
  APITimeoutError,
  APIUserAbortError,
  isParleyError,
  ResponseValidationError,
  StreamError,
} from '../errors/index.js';
import { EventQueue } from './event-queue.js';
import { type MessageSnapshot, ReplyAccumulator, ToolInputParseError } from './reply-accumulator.js';
import { StreamBodyParser } from './stream-body-parser.js';
import { decodeStreamEvent, isExceptionEvent, type StreamEventItem } from './stream-events.js';

/** Stream time limits, in ms. */
export interface StreamTimeouts {
  /** Longest wait for the first event once the response headers are in. */
  firstEventTimeoutMs: number;
  /** Longest gap between two chunks of the body. */
  idleTimeoutMs: number;
}

/** Listeners of {@link MessageStream.on}. */
export interface MessageStreamEvents {
  /** Every event, known or unknown, in order. */
  event: (event: StreamEventItem) => void;
  /** A text delta of an assistant message, and the text of its block so far. */
  text: (delta: string, snapshot: string) => void;
  /** A message finished (`messageStop`). */
  message: (message: MessageSnapshot) => void;
  /** A tool_use block finished, its input parsed. */
  toolUse: (block: ToolUseBlock) => void;
  /** The reply completed (`replyStop`). */
  reply: (reply: MessageReply) => void;
  /** The stream failed; `finalReply()` and iteration reject with the same error. */
  error: (error: Error) => void;
  /** The stream is over, successfully or not. Fires once. */
  end: () => void;
}

type Listeners = { [E in keyof MessageStreamEvents]: Array<{ fn: MessageStreamEvents[E]; once: boolean }> };

const noop = () => {};

/** Carries an error thrown by a user's listener, so it fails the stream unchanged. */
class ListenerFailure {
  constructor(readonly error: Error) {}
}

/**
 * A streamed reply: an `AsyncIterable` of typed events as they arrive, an event emitter, and
 * promises for the final reply. Events are parsed incrementally from the response body.
 *
 * The request starts at once; the body is read from the first use (iteration, `.on()`, or any
 * `final*()` call), so iterate or listen from the start to see every event.
 */
export class MessageStream implements AsyncIterable<StreamEventItem> {
  readonly #controller = new AbortController();
  readonly #opening: Promise<OpenResponse>;
  readonly #timeouts: StreamTimeouts;
  readonly #fallbackSessionId: string | undefined;
  readonly #listeners: Listeners = {
    event: [],
    text: [],
    message: [],
    toolUse: [],
    reply: [],
    error: [],
    end: [],
  };
  readonly #accumulator: ReplyAccumulator;
  readonly #iterators = new Set<EventQueue>();
  #done: Promise<MessageReply> | undefined;
  #sessionId: string | undefined;
  #response: Response | undefined;
  #reply: MessageReply | undefined;
  #eventCount = 0;
  #firstEventDeadline = 0;
  #lastKind: string | undefined;
  #ended = false;

  private constructor(
    open: (signal: AbortSignal) => Promise<OpenResponse>,
    timeouts: StreamTimeouts,
    userSignal: AbortSignal | undefined,
    sessionId: string | undefined,
  ) {
    this.#timeouts = timeouts;
    this.#fallbackSessionId = sessionId;
    if (userSignal) {
      if (userSignal.aborted) this.#controller.abort(userSignal.reason);
      else
        userSignal.addEventListener('abort', () => this.#controller.abort(userSignal.reason), { once: true });
    }
    this.#opening = open(this.#controller.signal);
    this.#opening.catch(noop);
    this.#accumulator = new ReplyAccumulator({
      text: (delta, snapshot) => this.#emit('text', delta, snapshot),
      toolUse: (block) => this.#emit('toolUse', block),
      message: (message) => this.#emit('message', message),
    });
  }

  /**
   * Starts a streamed request. `open` sends it with the given signal (aborted by `abort()`,
   * `break`, or `userSignal`). Used by `client.messages.stream`.
   */
  static start(
    open: (signal: AbortSignal) => Promise<OpenResponse>,
    timeouts: StreamTimeouts,
    userSignal?: AbortSignal,
    sessionId?: string,
  ): MessageStream {
    return new MessageStream(open, timeouts, userSignal, sessionId);
  }

  /** The session id from the body, once read. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The HTTP response, once its headers arrived. */
  get response(): Response | undefined {
    return this.#response;
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
   * Adds a listener. Listening starts reading the body.
   *
   * @example
   * ```ts
   * stream.on('text', (delta) => process.stdout.write(delta)).on('error', (e) => console.error(e));
   * ```
   */
  on<E extends keyof MessageStreamEvents>(event: E, listener: MessageStreamEvents[E]): this {
    (this.#listeners[event] as Array<{ fn: MessageStreamEvents[E]; once: boolean }>).push({
      fn: listener,
      once: false,
    });
    this.#ensureStarted();
    return this;
  }

  /** Adds a listener called at most once. */
  once<E extends keyof MessageStreamEvents>(event: E, listener: MessageStreamEvents[E]): this {
    (this.#listeners[event] as Array<{ fn: MessageStreamEvents[E]; once: boolean }>).push({
      fn: listener,
      once: true,
    });
    this.#ensureStarted();
    return this;
  }

  /** Removes a listener. */
  off<E extends keyof MessageStreamEvents>(event: E, listener: MessageStreamEvents[E]): this {
    const list = this.#listeners[event] as Array<{ fn: MessageStreamEvents[E]; once: boolean }>;
    const at = list.findIndex((entry) => entry.fn === listener);
    if (at >= 0) list.splice(at, 1);
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
    const queue = new EventQueue(() => {
      this.#iterators.delete(queue);
      // Leaving the loop early cancels the request.
      if (!this.#ended) this.#controller.abort(new APIUserAbortError('Stream iteration was stopped'));
    });
    if (this.#ended) queue.finish(this.#reply ? undefined : this.#failure);
    else this.#iterators.add(queue);
    this.#ensureStarted();
    return queue;
  }

  #failure: Error | undefined;

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
    if (!body) throw this.#streamError('The streamed response has no body');
    const reader = body.getReader();
    this.#firstEventDeadline = Date.now() + this.#timeouts.firstEventTimeoutMs;
    const raws: unknown[] = [];
    const parser = new StreamBodyParser({
      sessionId: (id) => {
        this.#sessionId = id;
      },
      event: (raw) => raws.push(raw),
    });
    try {
      for (;;) {
        const { done, value } = await this.#read(reader);
        if (done) {
          try {
            parser.end();
          } catch (cause) {
            throw this.#streamError('The stream ended before the body was complete', { cause });
          }
          break;
        }
        try {
          parser.write(value);
        } catch (cause) {
          throw this.#streamError('The stream body is not valid JSON', { cause });
        }
        for (const raw of raws.splice(0)) this.#handle(raw);
      }
      if (!this.#reply) throw this.#streamError('The stream ended without replyStop');
      return this.#reply;
    } finally {
      reader.cancel().catch(noop);
    }
  }

  #handle(raw: unknown): void {
    const decoded = decodeStreamEvent(raw);
    if (!decoded.ok) {
      throw new ResponseValidationError(
        `Stream event ${this.#eventCount} (${decoded.kind}) does not match the protocol: ${
          decoded.issues[0]?.message ?? 'invalid'
        }`,
        { issues: decoded.issues, body: decoded.payload },
      );
    }
    const item = decoded.item;
    this.#eventCount++;
    this.#lastKind = item.type === 'unknown' ? item.kind : item.type;
    for (const queue of this.#iterators) queue.push(item);
    this.#emit('event', item);
    if (isExceptionEvent(item)) {
      throw new StreamError(`The stream reported ${item.type}: ${item.message}`, {
        eventCount: this.#eventCount,
        lastEventKind: this.#lastKind,
        exceptionKind: item.type,
        code: item.code,
      });
    }
    try {
      this.#accumulator.apply(item);
    } catch (cause) {
      if (cause instanceof ToolInputParseError) throw this.#streamError(cause.message, { cause });
      throw cause;
    }
    if (item.type === 'replyStop') {
      const { type: _type, ...fields } = item;
      const sessionId = this.#sessionId ?? this.#fallbackSessionId;
      if (sessionId === undefined) throw this.#streamError('The stream body has no sessionId');
      this.#reply = { ...fields, sessionId };
      this.#emit('reply', this.#reply);
    }
  }

  /** Reads one chunk, bounded by the first-event and idle timeouts and by `abort()`. */
  #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
    const signal = this.#controller.signal;
    const idle = this.#timeouts.idleTimeoutMs;
    const untilFirst =
      this.#eventCount === 0 ? this.#firstEventDeadline - Date.now() : Number.POSITIVE_INFINITY;
    const firstLimits = untilFirst < idle;
    const limit = Math.max(0, Math.min(idle, untilFirst));
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        cleanup();
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        cleanup();
        const what = firstLimits
          ? `No stream event within ${this.#timeouts.firstEventTimeoutMs} ms`
          : `The stream was idle for ${idle} ms`;
        reject(new APITimeoutError(`${what} (${this.#received()})`));
      }, limit);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      reader.read().then(
        (result) => {
          cleanup();
          resolve(result);
        },
        (error: unknown) => {
          cleanup();
          reject(error);
        },
      );
    });
  }

  #normalize(error: unknown): Error {
    if (error instanceof ListenerFailure) return error.error;
    if (isParleyError(error)) return error;
    if (this.#controller.signal.aborted) {
      return new APIUserAbortError(`Stream was aborted (${this.#received()})`, { cause: error });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return this.#streamError(`The stream broke: ${detail}`, { cause: error });
  }

  #finish(failure: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = failure;
    if (failure) this.#controller.abort(failure);
    for (const queue of this.#iterators) queue.finish(failure);
    this.#iterators.clear();
    // A throwing 'error' or 'end' listener must not turn into an unhandled rejection.
    try {
      if (failure) this.#emit('error', failure);
    } catch {}
    try {
      this.#emit('end');
    } catch {}
  }

  #emit<E extends keyof MessageStreamEvents>(event: E, ...args: Parameters<MessageStreamEvents[E]>): void {
    const list = this.#listeners[event] as Array<{ fn: (...a: unknown[]) => void; once: boolean }>;
    for (const entry of [...list]) {
      if (entry.once) list.splice(list.indexOf(entry), 1);
      try {
        entry.fn(...args);
      } catch (error) {
        throw new ListenerFailure(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  #received(): string {
    return `after ${this.#eventCount} event${this.#eventCount === 1 ? '' : 's'}${
      this.#lastKind ? `, last ${this.#lastKind}` : ''
    }`;
  }

  #streamError(message: string, options: { cause?: unknown } = {}): StreamError {
    return new StreamError(message, {
      eventCount: this.#eventCount,
      lastEventKind: this.#lastKind,
      cause: options.cause,
    });
  }
}
