import type { OpenResponse } from '../core/http-client.js';
import { DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS, DEFAULT_STREAM_IDLE_TIMEOUT_MS } from '../defaults.js';
import type { MessageStreamStart } from './message-stream-start.js';
import { RELAYED_ERROR_KIND, relayError } from './relayed-error.js';
import type { StreamEventItem } from './stream-events.js';
import type { AnyToolInputs, PartialInput, ToolInputMap } from './tool-input-delta.js';

/** Options of `MessageStream.fromReadableStream`. */
export interface FromReadableStreamOptions<M extends ToolInputMap = AnyToolInputs> {
  /** Stops reading (and cancels the body); the stream rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Longest wait for the first event (ms); `defaults.stream.firstEventTimeoutMs` (60 s) otherwise. */
  firstEventTimeoutMs?: number;
  /** Longest gap between two chunks of the body (ms); `defaults.stream.idleTimeoutMs` (60 s) otherwise. */
  idleTimeoutMs?: number;
  /** Parses tool input as it streams: `partialInput()` from `@parley/sdk/partial-input`. */
  partialInput?: PartialInput<M>;
}

/**
 * How `MessageStream.fromReadableStream` reads a relayed body: as the response of a request already made.
 *
 * @internal
 */
export function relayedStart<M extends ToolInputMap>(
  body: ReadableStream<Uint8Array>,
  options: FromReadableStreamOptions<M>,
): MessageStreamStart<M> {
  return {
    // Only the response is read from a relayed body's opening.
    open: async () => ({ response: new Response(body) }) as OpenResponse,
    timeouts: {
      firstEventTimeoutMs: options.firstEventTimeoutMs ?? DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    },
    signal: options.signal,
    partialInput: options.partialInput,
  };
}

/** An event as the protocol writes it: `{ [kind]: payload }`. */
function wireEvent(item: StreamEventItem): Record<string, unknown> {
  if (item.type === 'unknown') return { [item.kind]: item.payload };
  const { type, ...payload } = item;
  return { [type]: payload };
}

/**
 * The body `toReadableStream()` writes: the protocol's own streamed document,
 * `{"sessionId":"…","events":[` then one event per line, then `]}`. When the stream fails on this
 * side, one last event `{"parleyError":{name, message, …}}` describes the error before the
 * document closes. Pulled: an event is taken from the stream when the reader wants more, so a slow
 * reader slows the stream down; cancelling the body stops the stream (its request is aborted).
 */
export function relayBody(
  events: AsyncIterator<StreamEventItem>,
  sessionId: () => string | undefined,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let separator = '';
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let line: string | undefined;
      let done = true;
      try {
        const next = await events.next();
        if (!next.done) {
          line = JSON.stringify(wireEvent(next.value));
          done = false;
        }
      } catch (error) {
        // The stream's failures are always Errors (an SDK error, or what a listener threw).
        line = JSON.stringify({ [RELAYED_ERROR_KIND]: relayError(error as Error) });
      }
      // The head waits for the first event: by then the body's sessionId is known.
      let text = separator === '' ? `{"sessionId":${JSON.stringify(sessionId() ?? '')},"events":[\n` : '';
      if (line !== undefined) text += separator + line;
      separator = ',\n';
      if (done) text += '\n]}\n';
      controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
    async cancel() {
      await events.return?.();
    },
  });
}
