/**
 * The stream a {@link EventPacer} writes to: the next event, or raw text, or the two ways a body can
 * end early. The {@link StreamWriter} implements it.
 */
export interface PacedStream {
  /** Events (or raw texts) written so far. */
  readonly written: number;
  /** Whether the body ended (closed, cut, dropped, or the client went away). */
  readonly closed: boolean;
  /** Writes one event now. */
  write(event: Record<string, unknown>): void;
  /** Writes raw text in place of an event (it counts as one). */
  writeText(text: string): void;
  /**
   * No more events: the body ends, its JSON left open, once the reply (which goes on, as behind a
   * proxy that cut the stream) has ended.
   */
  cut(): void;
  /**
   * The connection drops: `dropConnection` destroys the real one (node:http), otherwise the body
   * errors with `reason`; the reply aborts.
   */
  drop(reason: Error, dropConnection?: () => void): Promise<void>;
}

/**
 * Decides when and how each event of a streamed reply is written. Without a pacer the writer writes
 * each event at once; the testing toolkit's stream faults (latency, delay, cut, drop, malformed)
 * are a pacer, so the core knows nothing of faults.
 */
export interface EventPacer {
  /**
   * Writes `event` to `stream` at its pace; called one event at a time, in order. `signal` aborts
   * when the client goes away (a pending wait then rejects with its reason).
   */
  pace(event: Record<string, unknown>, stream: PacedStream, signal: AbortSignal): Promise<void>;
}
