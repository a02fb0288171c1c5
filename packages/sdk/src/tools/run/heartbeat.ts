import {
  ASSUMED_HEARTBEAT_TIMEOUT_MS,
  BEATS_PER_TIMEOUT,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_JITTER,
  LOCAL_TIMEOUT_BUFFER_MS,
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
import { raceSignal } from '../../internal/race-signal.js';
import { warnUnknownOptions } from '../../internal/unknown-options.js';
import { beatTimeoutMessage, lostMessage } from './heartbeat-messages.js';
import type { ToolTransport } from './tool-transport.js';

/** Why a heartbeat timer ended: stopped by its owner, the owner's signal aborted, or the call was lost. */
export type HeartbeatEndReason = 'STOPPED' | 'ABORTED' | ToolCallLostReason;

export interface HeartbeatOptions {
  sessionId: string;
  requestId: string;
  /** The server's `heartbeatTimeoutMs` from the reply; sets the interval and the local timeout. */
  heartbeatTimeoutMs?: number | undefined;
  /** Aborting it ends the timer (reason `ABORTED`) and cancels the beat in flight. */
  signal?: AbortSignal | undefined;
  /** Source of jitter, `[0, 1)`. Defaults to `Math.random`. */
  random?: (() => number) | undefined;
  /** Called with each failed beat that does not end the timer (network errors, 5xx, beat timeouts). */
  onBeatError?: ((error: unknown) => void) | undefined;
  /** Called after each successful beat, with the number of successful beats so far. */
  onBeat?: ((beats: number) => void) | undefined;
}

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

/**
 * The automatic heartbeat of one tool call. The first beat goes out at once, then one beat per
 * (jittered) interval on a chained `setTimeout`, so beats never overlap. A beat in flight is kept
 * until the lease it renews is at risk (the send time of the last successful beat plus the server's
 * timeout; at least one interval), not aborted for being slower than an interval: on a saturated
 * client a slow beat is worth more than a new one. Past that deadline it is abandoned and the next
 * beat goes out at once. Beats are never retried by the client. A 409 ends the timer with
 * `ABANDONED`, a 404 with `NOT_FOUND`; other failures are reported to `onBeatError` and the timer
 * keeps going, until no beat has succeeded for the server's timeout plus
 * `defaults.heartbeat.localTimeoutBufferMs` (1 s), which ends it with `TIMED_OUT`. In those three cases {@link lost}
 * aborts with a {@link ToolCallLostError}.
 *
 * @example
 * const heartbeat = new Heartbeat(client.tools, { sessionId, requestId, heartbeatTimeoutMs }).start();
 * try {
 *   await work({ signal: heartbeat.lost });
 * } finally {
 *   await heartbeat.stop(); // waits for the beat in flight before the result is reported
 * }
 */
export class Heartbeat {
  readonly sessionId: string;
  readonly requestId: string;
  /** Time between beats before jitter. */
  readonly intervalMs: number;
  /** How long without a successful beat before the call is given up locally. */
  readonly localTimeoutMs: number;
  /** The server's timeout (its lease), or the assumed one when the reply did not say. */
  readonly leaseMs: number;
  /** Aborted, with a {@link ToolCallLostError} as its reason, when the call is lost. */
  readonly lost: AbortSignal;

  readonly #transport: Pick<ToolTransport, 'heartbeat'>;
  readonly #options: HeartbeatOptions;
  readonly #lostController = new AbortController();
  #started = false;
  #stopping = false;
  #endReason: HeartbeatEndReason | undefined;
  #lostError: ToolCallLostError | undefined;
  #inFlight: Promise<void> | undefined;
  #beatController: AbortController | undefined;
  #nextBeat: ReturnType<typeof setTimeout> | undefined;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #successes = 0;
  #failures = 0;
  /** When the lease runs out unless a beat lands: the last successful beat's send time plus the lease. */
  #leaseEndsAt = 0;
  /** The last beat ran out of time with the lease at risk: send the next one at once. */
  #urgent = false;

  constructor(transport: Pick<ToolTransport, 'heartbeat'>, options: HeartbeatOptions) {
    warnUnknownOptions(options, 'new Heartbeat()');
    this.#transport = transport;
    this.#options = options;
    this.sessionId = options.sessionId;
    this.requestId = options.requestId;
    this.intervalMs = heartbeatIntervalMs(options.heartbeatTimeoutMs);
    const timeout = options.heartbeatTimeoutMs;
    const serverTimeout =
      timeout !== undefined && Number.isFinite(timeout) && timeout > 0
        ? timeout
        : ASSUMED_HEARTBEAT_TIMEOUT_MS;
    this.leaseMs = serverTimeout;
    this.localTimeoutMs = serverTimeout + LOCAL_TIMEOUT_BUFFER_MS;
    this.lost = this.#lostController.signal;
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
    this.#leaseEndsAt = Date.now() + this.leaseMs;
    this.#armWatchdog();
    this.#tick();
    return this;
  }

  /**
   * Ends the timer and resolves once the beat in flight (if any) has settled, so a terminal report
   * sent afterwards never races a heartbeat. A 409 or 404 that beat brings back still counts as lost.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#nextBeat);
    this.#nextBeat = undefined;
    await this.#inFlight;
    this.#end('STOPPED');
  }

  #onAbort = (): void => {
    this.#end('ABORTED');
  };

  #tick = (): void => {
    this.#nextBeat = undefined;
    if (this.#endReason !== undefined || this.#stopping) return;
    const beat = this.#beat();
    this.#inFlight = beat;
    void beat.then(() => {
      this.#inFlight = undefined;
      if (this.#endReason !== undefined || this.#stopping) return;
      if (this.#urgent) {
        // The lease is at risk: no wait.
        this.#urgent = false;
        this.#tick();
        return;
      }
      this.#nextBeat = setTimeout(this.#tick, jitteredIntervalMs(this.intervalMs, this.#options.random));
    });
  };

  async #beat(): Promise<void> {
    const controller = new AbortController();
    this.#beatController = controller;
    // The beat's own deadline: until the lease it renews is at risk, and at least one interval.
    // Enforced here too, so a transport that ignores `timeoutMs` cannot hold the timer up.
    const sentAt = Date.now();
    const deadlineMs = Math.max(this.intervalMs, this.#leaseEndsAt - sentAt);
    const deadline = setTimeout(() => {
      this.#urgent = true;
      controller.abort(
        new APITimeoutError(beatTimeoutMessage(deadlineMs, this.intervalMs, Date.now() - sentAt)),
      );
    }, deadlineMs);
    try {
      await raceSignal(
        this.#transport.heartbeat(this.sessionId, this.requestId, {
          signal: controller.signal,
          timeoutMs: deadlineMs,
          maxRetries: 0,
        }),
        controller.signal,
      );
      this.#successes++;
      this.#leaseEndsAt = sentAt + this.leaseMs;
      if (this.#endReason === undefined) this.#armWatchdog();
      notify(this.#options.onBeat, this.#successes);
    } catch (error) {
      this.#failures++;
      // Out of time with the lease at risk (this timer's deadline or the transport's own): beat again at once.
      if (Date.now() - sentAt >= deadlineMs) this.#urgent = true;
      if (error instanceof ConflictError) this.#end('ABANDONED', error);
      else if (error instanceof NotFoundError) this.#end('NOT_FOUND', error);
      else if (this.#endReason === undefined) notify(this.#options.onBeatError, error);
    } finally {
      clearTimeout(deadline);
      if (this.#beatController === controller) this.#beatController = undefined;
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
    if (reason === 'STOPPED') return;
    // A beat still on its way is pointless once the call is lost or the owner gave up.
    this.#beatController?.abort(new APITimeoutError('Heartbeat cancelled: the timer ended'));
    if (reason === 'ABORTED') return;
    this.#lostError = new ToolCallLostError(
      lostMessage(reason, this.sessionId, this.requestId, this.localTimeoutMs),
      {
        reason,
        sessionId: this.sessionId,
        requestId: this.requestId,
        cause,
      },
    );
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

/** Calls a user callback; a callback that throws must not stop the timer (or the tool it guards). */
function notify<T>(callback: ((value: T) => void) | undefined, value: T): void {
  try {
    callback?.(value);
  } catch {
    // Ignored on purpose: logging hooks are best effort.
  }
}
