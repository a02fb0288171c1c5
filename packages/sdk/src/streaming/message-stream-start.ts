import type { OpenResponse } from '../core/http-client.js';
import type { StreamRecovery } from '../recovery/stream-recovery.js';
import type { StreamTimeouts } from './body-reader.js';
import type { StreamObserver } from './stream-consumers.js';
import type { AnyToolInputs, PartialInput, ToolInputMap } from './tool-input-delta.js';

/**
 * How `MessageStream.start` opens a stream.
 *
 * @internal
 */
export interface MessageStreamStart<M extends ToolInputMap = AnyToolInputs> {
  /** Sends the request with the given signal (aborted by `abort()`, `break`, or `signal`). */
  open: (signal: AbortSignal) => Promise<OpenResponse>;
  timeouts: StreamTimeouts;
  /** The caller's signal; let go of once the stream ends or aborts. */
  signal?: AbortSignal | undefined;
  /** The session, for a body that does not name it. */
  sessionId?: string | undefined;
  partialInput?: PartialInput<M> | undefined;
  /** Told of each item delivered and of the end (the stream's span, with a tracer). */
  observer?: StreamObserver | undefined;
  /** With the `recover` option: takes over a failure of the reply (loaded on first use). */
  recovery?: Promise<StreamRecovery> | undefined;
}
