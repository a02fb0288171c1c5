import {
  ASSUMED_HEARTBEAT_TIMEOUT_MS,
  BEATS_PER_TIMEOUT,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_JITTER,
  LOCAL_TIMEOUT_BUFFER_MS,
  MAX_BEATS_IN_FLIGHT,
  MAX_HEARTBEAT_INTERVAL_MS,
  MIN_HEARTBEAT_INTERVAL_MS,
} from '../../defaults.js';
import {
  APITimeoutError,
  ConflictError,
  NotFoundError,
  ToolCallLostError,
  type ToolCallLostReason,
} from '../../errors/index.js';
import { checkOptions, type OptionKeys } from '../../internal/option-check.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { HeartbeatLease } from '../../wire/index.js';
import { beatTimeoutMessage, lostMessage } from './heartbeat-messages.js';
import { isLeasedError, leaseHeaders } from './tool-lease.js';
import type { ToolTransport } from './tool-transport.js';

/** Why a heartbeat timer ended: stopped by its owner, the owner's signal aborted, or the call was lost. */
export type HeartbeatEndReason = 'STOPPED' | 'ABORTED' | ToolCallLostReason;

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
}

/** Every key of {@link HeartbeatOptions}, checked by `new Heartbeat()`: a new option is one more line here. */
export const HEARTBEAT_OPTION_KEYS = {
  sessionId: 'string',
  requestId: 'string',
  heartbeatTimeoutMs: 'number',
  signal: 'object',
  random: 'function',
  onBeatError: 'function',
  onBeat: 'function',
  leaseToken: 'string',
} as const satisfies OptionKeys<HeartbeatOptions>;

/** The interval for a server timeout: `clamp(timeout / 3, 250 ms, 5 s)`, or 1 s when it is unknown. */
export function heartbeatIntervalMs(heartbeatTimeoutMs?: number): number {
  if (heartbeatTimeoutMs === undefined || !Number.isFinite(heartbeatTimeoutMs) || heartbeatTimeoutMs <= 0) {
    return DEFAULT_HEARTBEAT_INTERVAL_MS;
  }
  const third = heartbeatTimeoutMs / BEATS_PER_TIMEOUT;
  return Math.round(Math.min(MAX_HEARTBEAT_INTERVAL_MS, Math.max(MIN_HEARTBEAT_INTERVAL_MS, third)));
}

/** The wait before the next beat: the interval shortened by up to 20 %, never lengthened. */
export function jitteredIntervalMs(intervalMs: number, random: () => number = Math.random): number {
  return Math.round(intervalMs * (1 - HEARTBEAT_JITTER * jitter(random)));
}

/** `random()` within `[0, 1]`; no jitter when it throws or is not a number (the beats must go on). */
function jitter(random: () => number): number {
  let r: unknown;
  try {
    r = random();
  } catch {
    return 0;
  }
  return typeof r === 'number' && r > 0 ? Math.min(1, r) : 0;
}

/** How a call's first beat ended: the call is this worker's (with the lease, when the server says it), or lost. */
export type HeartbeatClaim =
  | { held: true; lease: HeartbeatLease | undefined }
  | { held: false; error: ToolCallLostError | undefined };

/**
 * The automatic heartbeat of one tool call. Beats are scheduled from the lease, not from the last
 * answer: the first goes out at once, then one per (jittered) interval after the previous one was
 * *sent*. A beat still unanswered when the next is due is waited for (a slow client beats no more
 * often than its answers come back) until the lease is at risk: one interval before the lease ends
 * (the send time of the last successful beat plus the lease) the next beat goes out beside it, on
 * another connection, in time to land. The stalled one is kept until its lease ends (at least one
 * interval), then abandoned. At most `MAX_BEATS_IN_FLIGHT` (2) are in flight: with two out, the
 * next waits for one of them to settle. Beats are never retried by
 * the client. A 409 ends the timer with `ABANDONED` (`LEASED` for the lease extension's
 * `tool_call_leased`), a 404 with `NOT_FOUND`; other failures are reported to `onBeatError` and
 * the timer keeps going, until no beat has succeeded for the lease plus
 * `defaults.heartbeat.localTimeoutBufferMs` (1 s), which ends it with `TIMED_OUT`. In those cases
 * {@link lost} aborts with a {@link ToolCallLostError}.
 *
 * The lease is the server's `heartbeatTimeoutMs` when given; a beat answered under the lease
 * extension names it (and replaces a guess). Unknown, it is assumed 3 s
 * (`defaults.heartbeat.assumedTimeoutMs`): the longest the 1 s beats defend.
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
  /** When the lease runs out unless a beat lands: the last successful beat's send time plus the lease. */
  #leaseEndsAt = 0;

  constructor(transport: Pick<ToolTransport, 'heartbeat'>, options: HeartbeatOptions) {
    checkOptions(options, HEARTBEAT_OPTION_KEYS, 'new Heartbeat()');
    this.#transport = transport;
    this.#options = options;
    this.sessionId = options.sessionId;
    this.requestId = options.requestId;
    const timeout = options.heartbeatTimeoutMs;
    this.#leaseMs =
      timeout !== undefined && Number.isFinite(timeout) && timeout > 0
        ? timeout
        : ASSUMED_HEARTBEAT_TIMEOUT_MS;
    this.#intervalMs = heartbeatIntervalMs(options.heartbeatTimeoutMs);
    this.#request = { maxRetries: 0, ...leaseHeaders(options.leaseToken) };
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

  /**
   * Replaces `onBeat` and `onBeatError`: a call handed over with its heartbeat running (the tool
   * loop beats queued calls) reports its beats where the call's run does (its span, its hooks).
   */
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

  /** Sends the first beat now and keeps beating until stopped, aborted or lost. Calling it twice does nothing. */
  start(): this {
    if (this.#started) return this;
    this.#started = true;
    const { signal } = this.#options;
    if (signal?.aborted) {
      this.#end('ABORTED');
      return this;
    }
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#leaseEndsAt = Date.now() + this.#leaseMs;
    this.#armWatchdog();
    this.#tick();
    return this;
  }

  /**
   * Ends the timer and resolves once the beats in flight (if any) have settled, so a terminal report
   * sent afterwards never races a heartbeat. A 409 or 404 such a beat brings back still counts as lost.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#nextBeat);
    this.#nextBeat = undefined;
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
    this.#end('STOPPED');
  }

  #onAbort = (): void => {
    this.#end('ABORTED');
  };

  /**
   * Sends the beat that is due, unless one is still in flight and the lease is not yet at risk: then
   * it waits for that beat's answer, or for the rescue point (one interval before the lease ends),
   * whichever comes first. So a slow client beats no more often than its answers come back, and a
   * stalled beat gets a second one beside it in time to land before the lease ends.
   */
  #tick = (): void => {
    this.#nextBeat = undefined;
    if (this.#endReason !== undefined || this.#stopping) return;
    const now = Date.now();
    // Two already out (a stalled one and its rescue): wait for one of them; neither is cut short.
    if (this.#inFlight.size >= MAX_BEATS_IN_FLIGHT) return;
    if (this.#inFlight.size > 0 && now < this.#rescueAt()) {
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
  #rescueAt(): number {
    return this.#leaseEndsAt - this.#intervalMs;
  }

  /** (Re)arms the timer: the due time, or with a beat in flight the later of it and the rescue point. */
  #schedule(): void {
    if (this.#endReason !== undefined || this.#stopping) return;
    clearTimeout(this.#nextBeat);
    if (this.#inFlight.size >= MAX_BEATS_IN_FLIGHT) return; // the next answer reschedules
    const at = this.#inFlight.size > 0 ? Math.max(this.#dueAt, this.#rescueAt()) : this.#dueAt;
    const delay = at - Date.now();
    // Already due (a beat answered late): send it now, not a timer turn later.
    if (delay <= 0) this.#tick();
    else this.#nextBeat = setTimeout(this.#tick, delay);
  }

  async #beat(controller: AbortController): Promise<void> {
    // The beat's own deadline: until the lease it renews ends, and at least one interval. Enforced
    // here too, so a transport that ignores `timeoutMs` cannot hold the timer up.
    const sentAt = Date.now();
    const interval = this.#intervalMs;
    const deadlineMs = Math.max(interval, this.#leaseEndsAt - sentAt);
    const deadline = setTimeout(() => {
      controller.abort(
        new APITimeoutError(beatTimeoutMessage(deadlineMs, this.#intervalMs, Date.now() - sentAt)),
      );
    }, deadlineMs);
    try {
      // A transport that answers nothing (a fake, a server without the lease extension) is a plain beat.
      const answer: unknown = await raceSignal<unknown>(
        this.#transport.heartbeat(this.sessionId, this.requestId, {
          ...this.#request,
          signal: controller.signal,
          timeoutMs: deadlineMs,
        }),
        controller.signal,
      );
      if (this.#endReason !== undefined) return;
      this.#successes++;
      // The server's answer names the lease: it ends a lease after this beat was sent, whatever was
      // assumed before. Otherwise a beat can only move the lease's end later.
      if (isLease(answer)) {
        this.#learn(answer);
        this.#leaseEndsAt = sentAt + this.#leaseMs;
      } else this.#leaseEndsAt = Math.max(this.#leaseEndsAt, sentAt + this.#leaseMs);
      this.#armWatchdog();
      this.#claim({ held: true, lease: this.#lease });
      notify(this.#onBeat, this.#successes);
    } catch (error) {
      this.#failures++;
      if (isLeasedError(error)) this.#end('LEASED', error);
      else if (error instanceof ConflictError) this.#end('ABANDONED', error);
      else if (error instanceof NotFoundError) this.#end('NOT_FOUND', error);
      else if (this.#endReason === undefined) notify(this.#onBeatError, error);
    } finally {
      clearTimeout(deadline);
    }
  }

  /** The lease the server answered: its length replaces a given or assumed one. */
  #learn(lease: HeartbeatLease): void {
    this.#lease = lease;
    const ms = lease.heartbeatTimeoutMs;
    if (!(Number.isFinite(ms) && ms > 0) || ms === this.#leaseMs) return;
    const shorter = ms < this.#leaseMs;
    this.#leaseMs = ms;
    this.#intervalMs = heartbeatIntervalMs(ms);
    // A shorter lease than assumed: the next beat must not wait for the longer interval.
    if (shorter) {
      this.#dueAt = Math.min(
        this.#dueAt,
        Date.now() + jitteredIntervalMs(this.#intervalMs, this.#options.random),
      );
    }
  }

  #armWatchdog(): void {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(() => this.#end('TIMED_OUT'), this.localTimeoutMs);
  }

  #end(reason: HeartbeatEndReason, cause?: unknown): void {
    if (this.#endReason !== undefined) return;
    this.#endReason = reason;
    clearTimeout(this.#nextBeat);
    clearTimeout(this.#watchdog);
    this.#nextBeat = undefined;
    this.#watchdog = undefined;
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
    if (reason === 'STOPPED') {
      this.#claim({ held: false, error: undefined });
      return;
    }
    // A beat still on its way is pointless once the call is lost or the owner gave up.
    for (const controller of this.#inFlight.keys()) {
      controller.abort(new APITimeoutError('Heartbeat cancelled: the timer ended'));
    }
    if (reason === 'ABORTED') {
      this.#claim({ held: false, error: undefined });
      return;
    }
    this.#lostError = new ToolCallLostError(
      lostMessage(reason, this.sessionId, this.requestId, this.localTimeoutMs),
      {
        reason,
        sessionId: this.sessionId,
        requestId: this.requestId,
        cause,
      },
    );
    this.#claim({ held: false, error: this.#lostError });
    this.#lostController.abort(this.#lostError);
  }
}

/** Creates a {@link Heartbeat} and starts it. */
export function startHeartbeat(
  transport: Pick<ToolTransport, 'heartbeat'>,
  options: HeartbeatOptions,
): Heartbeat {
  return new Heartbeat(transport, options).start();
}

function isLease(value: unknown): value is HeartbeatLease {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as HeartbeatLease).heartbeatTimeoutMs === 'number'
  );
}

/** Calls a user callback; a callback that throws must not stop the timer (or the tool it guards). */
function notify<T>(callback: ((value: T) => void) | undefined, value: T): void {
  try {
    callback?.(value);
  } catch {
    // Ignored on purpose: logging hooks are best effort.
  }
}
