import {
  ASSUMED_HEARTBEAT_TIMEOUT_MS,
  LOCAL_TIMEOUT_BUFFER_MS,
  MAX_BEATS_IN_FLIGHT,
} from '../../defaults.js';
import { APITimeoutError, ConflictError, NotFoundError, ToolCallLostError } from '../../errors/index.js';
import { notify } from '../../internal/notify.js';
import { warnUnknownOptions } from '../../internal/unknown-options.js';
import type { HeartbeatLease } from '../../wire/index.js';
import { heartbeatIntervalMs, jitteredIntervalMs, keptLeaseMs } from './heartbeat-interval.js';
import { lostMessage } from './heartbeat-messages.js';
import type { HeartbeatClaim, HeartbeatEndReason, HeartbeatOptions } from './heartbeat-options.js';
import { sendBeat } from './send-beat.js';
import { isLeasedError, leaseHeaders } from './tool-lease.js';
import type { ToolTransport } from './tool-transport.js';
import { waitForBeats } from './wait-for-beats.js';

export { heartbeatIntervalMs, jitteredIntervalMs } from './heartbeat-interval.js';
export type {
  HeartbeatClaim,
  HeartbeatEndReason,
  HeartbeatOptions,
} from './heartbeat-options.js';

/**
 * The automatic heartbeat of one tool call (the rules: docs/tool-workers.md, "Heartbeats"). The
 * first beat goes out at once (with `heldSince`, an interval after that time); each next one is due
 * an interval after the previous one was *sent*.
 * A beat still unanswered then is waited for until one interval before the lease ends, when the next
 * goes out beside it (at most two in flight); one answered after the next was due moves that one to
 * the same point. A slow beat is not cut off when its lease ends (its late answer still renews),
 * only after the local timeout (the lease + 1 s) from its send. Never retried.
 * A 409 ends the timer with `ABANDONED` (`LEASED` for the lease extension's `tool_call_leased`), a
 * 404 with `NOT_FOUND`, no success for the lease + 1 s with `TIMED_OUT`: then {@link lost} aborts
 * with a {@link ToolCallLostError}. Other failures go to `onBeatError`. The lease: the given
 * `heartbeatTimeoutMs`, the one a lease-extension answer names, else 3 s assumed.
 *
 * @example
 * const heartbeat = new Heartbeat(client.tools, { sessionId, requestId, heartbeatTimeoutMs }).start();
 * try {
 *   await work({ signal: heartbeat.lost });
 * } finally {
 *   await heartbeat.stop(); // waits for the beats in flight before the result is reported
 * }
 */
export class Heartbeat {
  readonly sessionId: string;
  readonly requestId: string;
  /** Aborted, with a {@link ToolCallLostError} as its reason, when the call is lost. */
  readonly lost: AbortSignal;
  /**
   * Settles with the first beat that succeeds (the call is held; `lease` under the lease extension)
   * or when the timer ends before one does (`held: false`, with the error when the call was lost).
   */
  readonly claimed: Promise<HeartbeatClaim>;

  readonly #transport: Pick<ToolTransport, 'heartbeat'>;
  readonly #options: HeartbeatOptions;
  readonly #lostController = new AbortController();
  readonly #request: { maxRetries: number; headers?: Record<string, string> };
  #intervalMs: number;
  #leaseMs: number;
  #onBeat: ((beats: number) => void) | undefined;
  #onBeatError: ((error: unknown) => void) | undefined;
  #claim!: (claim: HeartbeatClaim) => void;
  #started = false;
  #stopping = false;
  #endReason: HeartbeatEndReason | undefined;
  #lostError: ToolCallLostError | undefined;
  #lease: HeartbeatLease | undefined;
  /** The beats in flight, oldest first, each with its controller. */
  readonly #inFlight = new Map<AbortController, Promise<void>>();
  #nextBeat: ReturnType<typeof setTimeout> | undefined;
  /** When the next beat is due: an interval (jittered) after the last one was sent. */
  #dueAt = 0;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #successes = 0;
  #failures = 0;
  /** When the lease was last renewed, as far as this side can tell: the latest send time of a beat that succeeded. */
  #renewedAt = 0;

  constructor(transport: Pick<ToolTransport, 'heartbeat'>, options: HeartbeatOptions) {
    warnUnknownOptions(options, 'new Heartbeat()');
    this.#transport = transport;
    this.#options = options;
    this.sessionId = options.sessionId;
    this.requestId = options.requestId;
    this.#leaseMs = keptLeaseMs(options.heartbeatTimeoutMs) ?? ASSUMED_HEARTBEAT_TIMEOUT_MS;
    this.#intervalMs = heartbeatIntervalMs(options.heartbeatTimeoutMs);
    this.#request = { maxRetries: 0, ...leaseHeaders(options.leaseToken) };
    if (options.heldSince !== undefined && !Number.isFinite(options.heldSince)) {
      throw new RangeError(`new Heartbeat(): heldSince must be a Date.now() time, got ${options.heldSince}`);
    }
    this.#onBeat = options.onBeat;
    this.#onBeatError = options.onBeatError;
    this.lost = this.#lostController.signal;
    this.claimed = new Promise((resolve) => {
      this.#claim = resolve;
    });
  }

  /** Time between beats before jitter: a third of the lease, within 250 ms..5 s (1 s while the lease is unknown). */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  /** The server's timeout (its lease): given, named by the server's answer, or assumed (3 s). */
  get leaseMs(): number {
    return this.#leaseMs;
  }

  /** How long without a successful beat before the call is given up locally: the lease plus 1 s. */
  get localTimeoutMs(): number {
    return this.#leaseMs + LOCAL_TIMEOUT_BUFFER_MS;
  }

  /** The lease as the server last answered it (lease extension only). */
  get lease(): HeartbeatLease | undefined {
    return this.#lease;
  }

  /** Replaces `onBeat` and `onBeatError`: a call handed over (the loop beats queued calls) reports where its run does. */
  listen(onBeat: HeartbeatOptions['onBeat'], onBeatError: HeartbeatOptions['onBeatError']): void {
    this.#onBeat = onBeat;
    this.#onBeatError = onBeatError;
  }

  /** Why the timer ended, recorded once; `undefined` while it runs. */
  get endReason(): HeartbeatEndReason | undefined {
    return this.#endReason;
  }

  /** The error {@link lost} aborted with, if the call was lost. */
  get lostError(): ToolCallLostError | undefined {
    return this.#lostError;
  }

  /** Beats that succeeded and beats that failed so far. */
  get stats(): { successes: number; failures: number } {
    return { successes: this.#successes, failures: this.#failures };
  }

  /**
   * Sends the first beat now (with `heldSince`, an interval after it: the call is held from now) and
   * keeps beating until stopped, aborted or lost. Calling it twice does nothing.
   */
  start(): this {
    if (this.#started) return this;
    this.#started = true;
    const { signal } = this.#options;
    if (signal?.aborted) {
      this.#end('ABORTED');
      return this;
    }
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    const now = Date.now();
    // The local timeout counts from now, even for a call held since earlier: a reply slower than
    // the lease (a busy server) leaves a call the first beat may still hold.
    this.#armWatchdog(now);
    // Held since then (the server leased the call to this token no later): the lease counts from
    // it, and the first beat renews it an interval later (at once if that is past).
    const { heldSince } = this.#options;
    const held = heldSince !== undefined && heldSince <= now;
    this.#renewedAt = held ? heldSince : now;
    if (held) this.#claim({ held: true, lease: undefined });
    this.#dueAt = held ? heldSince + jitteredIntervalMs(this.#intervalMs, this.#options.random) : now;
    if (this.#dueAt <= now) this.#tick();
    else this.#schedule();
    return this;
  }

  /**
   * Ends the timer and resolves once the beats in flight (if any) have settled, so a terminal report
   * sent afterwards never races a heartbeat; a beat still out when the lease ends is waited for no
   * longer (left to settle on its own, its answer ignored).
   * A 409 or 404 such a beat brings back still counts as lost.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#nextBeat);
    this.#nextBeat = undefined;
    await waitForBeats(this.#inFlight, this.#renewedAt + this.#leaseMs);
    this.#end('STOPPED');
  }

  #onAbort = (): void => {
    this.#end('ABORTED');
  };

  /** Sends the due beat, unless one is in flight and the rescue point has not come (then waits). */
  #tick = (): void => {
    this.#nextBeat = undefined;
    if (this.#endReason !== undefined || this.#stopping) return;
    const now = Date.now();
    // One out and the rescue point not come, or two out (a stalled one and its rescue): wait; none is cut short.
    if (this.#inFlight.size > 0 && (this.#inFlight.size >= MAX_BEATS_IN_FLIGHT || now < this.#rescueAt())) {
      this.#schedule();
      return;
    }
    const controller = new AbortController();
    const beat = this.#beat(controller).finally(() => {
      this.#inFlight.delete(controller);
      this.#schedule();
    });
    this.#inFlight.set(controller, beat);
    this.#dueAt = now + jitteredIntervalMs(this.#intervalMs, this.#options.random);
    this.#schedule();
  };

  /** When a beat must go out beside one still in flight: one interval before the lease ends. */
  #rescueAt = (): number => this.#renewedAt + this.#leaseMs - this.#intervalMs;

  /** (Re)arms the timer: the due time, or after a late answer the later of it and the rescue point. */
  #schedule(): void {
    if (this.#endReason !== undefined || this.#stopping) return;
    clearTimeout(this.#nextBeat);
    if (this.#inFlight.size >= MAX_BEATS_IN_FLIGHT) return; // the next answer reschedules
    // A beat in flight, or one answered late (a busy process or network), moves the next to the rescue point.
    const now = Date.now();
    const late = this.#inFlight.size > 0 || this.#dueAt < now;
    const delay = (late ? Math.max(this.#dueAt, this.#rescueAt()) : this.#dueAt) - now;
    if (delay <= 0) this.#tick();
    else this.#nextBeat = setTimeout(this.#tick, delay);
  }

  async #beat(controller: AbortController): Promise<void> {
    const sentAt = Date.now();
    try {
      const answer = await sendBeat(this.#transport, this, this.#request, controller, {
        deadlineMs: this.localTimeoutMs,
        intervalMs: this.#intervalMs,
      });
      if (this.#endReason !== undefined) return;
      this.#successes++;
      // A lease the server names ends a lease after this beat was sent, whatever was assumed.
      if (answer !== undefined) this.#learn(answer);
      // A late answer of an older beat never moves the renewal back.
      this.#renewedAt = Math.max(this.#renewedAt, sentAt);
      this.#armWatchdog(Date.now());
      this.#claim({ held: true, lease: this.#lease });
      notify(this.#onBeat, this.#successes);
    } catch (error) {
      this.#failures++;
      if (isLeasedError(error)) this.#end('LEASED', error);
      else if (error instanceof ConflictError) this.#end('ABANDONED', error);
      else if (error instanceof NotFoundError) this.#end('NOT_FOUND', error);
      else if (this.#endReason === undefined) notify(this.#onBeatError, error);
    }
  }

  /** The lease the server answered: its length replaces a given or assumed one. */
  #learn(lease: HeartbeatLease): void {
    this.#lease = lease;
    const ms = keptLeaseMs(lease.heartbeatTimeoutMs);
    if (ms === undefined || ms === this.#leaseMs) return;
    const shorter = ms < this.#leaseMs;
    this.#leaseMs = ms;
    this.#intervalMs = heartbeatIntervalMs(ms);
    // A shorter lease than assumed: the next beat must not wait for the longer interval.
    const due = Date.now() + jitteredIntervalMs(this.#intervalMs, this.#options.random);
    if (shorter) this.#dueAt = Math.min(this.#dueAt, due);
  }

  /** The local timeout, counted from `from` (the last success, or the lease's start). */
  #armWatchdog(from: number): void {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(() => this.#end('TIMED_OUT'), from + this.localTimeoutMs - Date.now());
  }

  #end(reason: HeartbeatEndReason, cause?: unknown): void {
    if (this.#endReason !== undefined) return;
    this.#endReason = reason;
    clearTimeout(this.#nextBeat);
    clearTimeout(this.#watchdog);
    this.#nextBeat = undefined;
    this.#watchdog = undefined;
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
    if (reason !== 'STOPPED') {
      // A beat still on its way is pointless once the call is lost or the owner gave up.
      const cancelled = new APITimeoutError('Heartbeat cancelled: the timer ended');
      for (const controller of this.#inFlight.keys()) controller.abort(cancelled);
    }
    if (reason === 'STOPPED' || reason === 'ABORTED') {
      this.#claim({ held: false, error: undefined });
      return;
    }
    const { sessionId, requestId } = this;
    const message = lostMessage(reason, sessionId, requestId, this.localTimeoutMs);
    this.#lostError = new ToolCallLostError(message, { reason, sessionId, requestId, cause });
    this.#claim({ held: false, error: this.#lostError });
    this.#lostController.abort(this.#lostError);
  }
}
