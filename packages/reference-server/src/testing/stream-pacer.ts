import type { EventPacer, PacedStream } from '../http/event-pacer.js';
import type { Clock } from '../time/clock.js';
import { MALFORMED_MARKER, type StreamFault } from './fault.js';

/**
 * The stream part of a fault as an {@link EventPacer}: latency before the first event, a delay
 * between two, and the body cut, dropped or made malformed after so many events.
 *
 * @param dropConnection destroys the real connection (node:http); without it a drop errors the body.
 * @param closed aborted when the server closes: the waits end, and what is left is written at once.
 */
export function streamPacer(
  fault: StreamFault,
  clock: Clock,
  dropConnection: (() => void) | undefined,
  closed?: AbortSignal,
): EventPacer {
  /** Cuts or drops the body once it carries as many events as the fault allows. */
  const limitReached = async (stream: PacedStream): Promise<boolean> => {
    if (fault.cutAfterEvents !== undefined && stream.written >= fault.cutAfterEvents) stream.cut();
    else if (fault.dropAfterEvents !== undefined && stream.written >= fault.dropAfterEvents) {
      await stream.drop(new TypeError('Injected fault: the connection was dropped'), dropConnection);
    } else return false;
    return true;
  };
  return {
    async pace(event, stream, signal) {
      if (await limitReached(stream)) return;
      const wait = stream.written === 0 ? fault.latencyMs : fault.delayMs;
      if (wait !== undefined && wait > 0 && closed?.aborted !== true) {
        const until = closed === undefined ? signal : AbortSignal.any([signal, closed]);
        await clock.sleep(wait, until).catch((error: unknown) => {
          if (closed?.aborted !== true || signal.aborted) throw error;
        });
      }
      if (stream.closed) return;
      if (fault.malformed && stream.written === 0) stream.writeText(MALFORMED_MARKER);
      else stream.write(event);
      await limitReached(stream);
    },
  };
}
