import { ParleyError } from '../errors/index.js';
import type { RecoveryAttempt } from '../recovery/recover-options.js';
import type { MessageReply, ToolUseBlock } from '../wire/index.js';
import { EventQueue } from './event-queue.js';
import type { AccumulatorCallbacks, MessageSnapshot } from './reply-accumulator.js';
import type { StreamEventItem } from './stream-events.js';
import type {
  AnyToolInputs,
  ToolInputDeltaMaker,
  ToolInputDeltaOf,
  ToolInputMap,
} from './tool-input-delta.js';

/** Listeners of {@link MessageStream.on}; `M` types the tool inputs of `toolInputDelta`. */
export interface MessageStreamEvents<M extends ToolInputMap = AnyToolInputs> {
  /** Every event, known or unknown, in order. */
  event: (event: StreamEventItem) => void;
  /** A text delta of an assistant message, and the text of its block so far. */
  text: (delta: string, snapshot: string) => void;
  /** A message finished (`messageStop`). */
  message: (message: MessageSnapshot) => void;
  /** A tool_use block finished, its input parsed. */
  toolUse: (block: ToolUseBlock) => void;
  /**
   * A fragment of a tool call's input, with the input parsed so far. Needs the stream's
   * `partialInput` option (from `@parley/sdk/partial-input`).
   */
  toolInputDelta: (delta: ToolInputDeltaOf<M>) => void;
  /**
   * The reply failed and the `recover` option took over (also a `recovered` event in iteration):
   * what streamed of the interrupted answer was retracted; a resume streams a new one.
   */
  recovered: (attempt: RecoveryAttempt) => void;
  /** The reply completed (`replyStop`). */
  reply: (reply: MessageReply) => void;
  /** The stream failed; `finalReply()` and iteration reject with the same error. */
  error: (error: Error) => void;
  /** The stream is over, successfully or not. Fires once. */
  end: () => void;
}

type Entry = { fn: (...args: never[]) => void; once: boolean };

/** Carries an error thrown by a user's listener, so it fails the stream unchanged. */
export class ListenerFailure {
  constructor(readonly error: Error) {}
}

/**
 * Told of what a stream delivers and of its end: its span, when the client has a tracer.
 *
 * @internal
 */
export interface StreamObserver {
  /** An item was delivered: an event, or a `recovered` item. */
  event(item: StreamEventItem): void;
  /** The stream is over: its reply complete, or failed with `failure`. */
  end(failure: Error | undefined): void;
}

/**
 * Who reads one stream: its listeners (`.on`), by event name, and its `for await` loops, each with
 * its own queue. Every event goes to both, in order; the stream's end (or failure) reaches both once.
 */
export class StreamConsumers {
  readonly #lists = new Map<keyof MessageStreamEvents, Entry[]>();
  readonly #iterators = new Set<EventQueue>();
  #ended = false;
  #failure: Error | undefined;
  observer: StreamObserver | undefined;

  /** Whether the stream is over (its reply complete, or failed). */
  get ended(): boolean {
    return this.#ended;
  }

  add<E extends keyof MessageStreamEvents>(event: E, fn: MessageStreamEvents[E], once: boolean): void {
    const list = this.#lists.get(event);
    if (list) list.push({ fn, once });
    else this.#lists.set(event, [{ fn, once }]);
  }

  remove<E extends keyof MessageStreamEvents>(event: E, fn: MessageStreamEvents[E]): void {
    const list = this.#lists.get(event);
    const at = list ? list.findIndex((entry) => entry.fn === fn) : -1;
    if (list && at >= 0) list.splice(at, 1);
  }

  /** Calls the listeners in order; one that throws stops the stream with a {@link ListenerFailure}. */
  emit<E extends keyof MessageStreamEvents>(event: E, ...args: Parameters<MessageStreamEvents[E]>): void {
    const list = this.#lists.get(event);
    // The common case on the hot path: nobody listens.
    if (list === undefined || list.length === 0) return;
    for (const entry of [...list]) {
      if (entry.once) list.splice(list.indexOf(entry), 1);
      try {
        (entry.fn as (...a: unknown[]) => void)(...args);
      } catch (error) {
        throw new ListenerFailure(
          error instanceof Error
            ? error
            : new ParleyError(`A "${event}" listener threw: ${String(error)}`, { cause: error }),
        );
      }
    }
  }

  /** What the accumulator finds goes to the listeners; `broken` names how far the stream got. */
  accumulatorCallbacks(
    broken: AccumulatorCallbacks['broken'],
    deltas: ToolInputDeltaMaker | undefined,
  ): AccumulatorCallbacks {
    return {
      text: (delta, snapshot) => this.emit('text', delta, snapshot),
      toolUse: (block) => this.emit('toolUse', block),
      message: (message) => this.emit('message', message),
      broken,
      ...(deltas && {
        toolInput: (block, fragment) => {
          const delta = deltas(block, fragment);
          if (delta) this.emit('toolInputDelta', delta);
        },
      }),
    };
  }

  /** The `recover` option took over: a `recovered` item for the loops, then the listeners. */
  recovered(attempt: RecoveryAttempt): void {
    this.deliver({ type: 'recovered', ...attempt });
    this.emit('recovered', attempt);
  }

  /** One event for every `for await` loop, then for the `event` listeners. */
  deliver(item: StreamEventItem): void {
    this.observer?.event(item);
    for (const queue of this.#iterators) queue.push(item);
    this.emit('event', item);
  }

  /**
   * A new `for await` loop's queue: `stopped` when it is left early, `drained` when it has taken
   * enough for reading to resume. A loop that starts after the end gets the end (or the failure).
   */
  iterate(stopped: () => void, drained: () => void): EventQueue {
    const queue = new EventQueue(() => {
      this.#iterators.delete(queue);
      stopped();
    }, drained);
    if (this.#ended) queue.finish(this.#failure);
    else this.#iterators.add(queue);
    return queue;
  }

  /** The most events any `for await` loop has waiting. */
  queued(): number {
    let most = 0;
    for (const queue of this.#iterators) most = Math.max(most, queue.size);
    return most;
  }

  /**
   * The stream is over: every loop ends (or rejects with `failure`), then `error` and `end` fire.
   * `late` is what a loop that starts afterwards gets: no failure once the reply was complete.
   */
  finish(failure: Error | undefined, late: Error | undefined = failure): void {
    this.#ended = true;
    this.#failure = late;
    this.observer?.end(failure);
    for (const queue of this.#iterators) queue.finish(failure);
    this.#iterators.clear();
    // A throwing 'error' or 'end' listener must not turn into an unhandled rejection.
    try {
      if (failure) this.emit('error', failure);
    } catch {}
    try {
      this.emit('end');
    } catch {}
  }
}
