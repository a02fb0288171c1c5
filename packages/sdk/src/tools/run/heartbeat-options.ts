import type { ToolCallLostError, ToolCallLostReason } from '../../errors/index.js';
import type { HeartbeatLease } from '../../wire/index.js';

/** Why a heartbeat timer ended: stopped by its owner, the owner's signal aborted, or the call was lost. */
export type HeartbeatEndReason = 'STOPPED' | 'ABORTED' | ToolCallLostReason;

/** How a call's first beat ended: the call is this worker's (with the lease, when the server says it), or lost. */
export type HeartbeatClaim =
  | { held: true; lease: HeartbeatLease | undefined }
  | { held: false; error: ToolCallLostError | undefined };

export interface HeartbeatOptions {
  sessionId: string;
  requestId: string;
  /**
   * The server's `heartbeatTimeoutMs` from the reply; sets the interval and the local timeout.
   * Unknown, 3 s is assumed until a lease-extension answer names it.
   */
  heartbeatTimeoutMs?: number | undefined;
  /** Aborting it ends the timer (reason `ABORTED`) and cancels the beat in flight. */
  signal?: AbortSignal | undefined;
  /** Source of jitter, `[0, 1)`. Defaults to `Math.random`. */
  random?: (() => number) | undefined;
  /** Called with each failed beat that does not end the timer (network errors, 5xx, beat timeouts). */
  onBeatError?: ((error: unknown) => void) | undefined;
  /** Called after each successful beat, with the number of successful beats so far. */
  onBeat?: ((beats: number) => void) | undefined;
  /**
   * The lease extension's token (docs/protocol.md): every beat carries it, the server answers the
   * lease, and a beat on a call another token holds ends the timer with `LEASED`.
   */
  leaseToken?: string | undefined;
  /**
   * Lease extension: a `Date.now()` time at or before which the server's lease on this call, for
   * `leaseToken`, began (the tool loop passes when its send started, for a call the send carried its
   * token for and whose reply reads `PROCESSING`). The call is held from `start()` (`claimed`
   * settles held, with no lease yet), the lease counts from this time, and the first beat is due one
   * jittered interval after it (at once if that is past). The local timeout still counts from
   * `start()`. A time later than `start()` is not trusted (the first beat goes out at once); one that
   * is not a finite number throws a `RangeError`.
   */
  heldSince?: number | undefined;
}
