import { RELAYED_ERROR_KIND, relayError } from './relayed-error.js';
import type { StreamEventItem } from './stream-events.js';

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
  let opened = false;
  const open = (): string => {
    if (opened) return ',\n';
    opened = true;
    return `{"sessionId":${JSON.stringify(sessionId() ?? '')},"events":[\n`;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text: string;
      try {
        const next = await events.next();
        if (next.done) {
          const head = open();
          text = `${head === ',\n' ? '' : head}\n]}\n`;
        } else {
          controller.enqueue(encoder.encode(open() + JSON.stringify(wireEvent(next.value))));
          return;
        }
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        text = `${open()}${JSON.stringify({ [RELAYED_ERROR_KIND]: relayError(failure) })}\n]}\n`;
      }
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
    async cancel() {
      await events.return?.();
    },
  });
}
