// Every default of the SDK in one place, so a reader finds them together and a change to one is a
// change here. The ground floor: it imports nothing, so every layer may read it (errors/ included).
// The named constants are for the SDK's own modules; users read the frozen `defaults` object below.

/** Per-attempt request time limit when `timeoutMs` is not set. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Retries of a repeat-safe request when `maxRetries` is not set. */
export const DEFAULT_MAX_RETRIES = 2;
/** First backoff delay; doubled on each retry. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Longest backoff delay (before jitter). */
export const MAX_RETRY_DELAY_MS = 8_000;
/** Share of the backoff delay that negative jitter may remove. */
export const RETRY_JITTER = 0.25;
/** Longest server-requested wait (`Retry-After`) the SDK honours. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Attempts of a tool call's terminal report (response or failure) before its error is thrown. */
export const MAX_REPORT_ATTEMPTS = 5;

/** Longest wait for a stream's first event when `streamFirstEventTimeoutMs` is not set. */
export const DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS = 60_000;
/** Longest gap between two chunks of a stream when `streamIdleTimeoutMs` is not set. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;
/** Events held for one `for await` loop before the stream stops reading the body. */
export const STREAM_HIGH_WATER_MARK = 1024;
/** Reading resumes once the slowest loop has this many events or fewer left. */
export const STREAM_LOW_WATER_MARK = 256;

/** Shortest interval between heartbeats, whatever the server's timeout. */
export const MIN_HEARTBEAT_INTERVAL_MS = 250;
/** Longest interval between heartbeats, whatever the server's timeout. */
export const MAX_HEARTBEAT_INTERVAL_MS = 5_000;
/** The heartbeat interval when the server's timeout is unknown. */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;
/** Heartbeats per server timeout: two may fail and the lease still holds. */
export const BEATS_PER_TIMEOUT = 3;
/** Share of the interval that jitter may remove (never add): each wait is interval × 0.8..1.0. */
export const HEARTBEAT_JITTER = 0.2;
/**
 * The server timeout assumed when neither the caller nor the server says it: the longest lease that
 * beats at the unknown-timeout interval (1 s) still defend (three beats per lease). Never longer:
 * a lease assumed longer than the server's lets the call lapse while its worker is healthy. With the
 * lease extension the first beat's answer names the real one.
 */
export const ASSUMED_HEARTBEAT_TIMEOUT_MS = 3_000;
/** Most heartbeats of one call in flight at once: a stalled beat is kept beside the next one, never a third. */
export const MAX_BEATS_IN_FLIGHT = 2;
/**
 * Added to the server's timeout before the heartbeat gives up locally. The lease is certainly stale
 * by `timeout` after the last successful beat; the buffer lets a beat already on its way land first.
 */
export const LOCAL_TIMEOUT_BUFFER_MS = 1_000;

/**
 * The request body limit `runTool` assumes when none is given: 1 MiB, the reference server's
 * default `maxBodyBytes`. A server that refuses a body answers `413` with its own limit in
 * `details.maxBytes`, which then names the limit in the report.
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Model replies per tool loop when `maxSteps` is not set. */
export const DEFAULT_MAX_STEPS = 10;
/** Tool calls a loop runs at once when `concurrency` is not set. */
export const DEFAULT_TOOL_CONCURRENCY = 4;
/** Sessions whose tools a client remembers; the oldest is forgotten past this many. */
export const MAX_REMEMBERED_SESSIONS = 1_000;
/** How long an aborted worker handler may take to stop on its own before its worker is terminated. */
export const DEFAULT_ABORT_GRACE_MS = 100;
/** Rounds of `recover` (wait, read the session, use or resume) when `maxAttempts` is not set. */
export const DEFAULT_RECOVER_MAX_ATTEMPTS = 3;

/**
 * The SDK's defaults, read-only: what an option is when you leave it out, and the limits the SDK
 * keeps to. Times are in milliseconds.
 *
 * @example
 * ```ts
 * import { defaults } from '@parley/sdk';
 *
 * console.log(defaults.stream.idleTimeoutMs); // 60000
 * ```
 */
export const defaults = /* @__PURE__ */ Object.freeze({
  /** `timeoutMs`: each attempt's time limit. */
  timeoutMs: DEFAULT_TIMEOUT_MS,
  /** `maxRetries`: retries of a request that is safe to repeat. */
  maxRetries: DEFAULT_MAX_RETRIES,
  /** Backoff: `min(initialDelayMs × 2^(retry-1), maxDelayMs)`, less up to `jitter` of it. */
  retry: /* @__PURE__ */ Object.freeze({
    initialDelayMs: INITIAL_RETRY_DELAY_MS,
    maxDelayMs: MAX_RETRY_DELAY_MS,
    jitter: RETRY_JITTER,
  }),
  /** Longest `Retry-After` honoured. */
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
  /** `streamFirstEventTimeoutMs`, `streamIdleTimeoutMs`, and the backpressure water marks (events). */
  stream: /* @__PURE__ */ Object.freeze({
    firstEventTimeoutMs: DEFAULT_STREAM_FIRST_EVENT_TIMEOUT_MS,
    idleTimeoutMs: DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    highWaterMark: STREAM_HIGH_WATER_MARK,
    lowWaterMark: STREAM_LOW_WATER_MARK,
  }),
  /** The heartbeat timer: `clamp(timeout / beatsPerTimeout, minIntervalMs, maxIntervalMs)`. */
  heartbeat: /* @__PURE__ */ Object.freeze({
    minIntervalMs: MIN_HEARTBEAT_INTERVAL_MS,
    maxIntervalMs: MAX_HEARTBEAT_INTERVAL_MS,
    /** The interval when the server's timeout is unknown. */
    intervalMs: DEFAULT_HEARTBEAT_INTERVAL_MS,
    beatsPerTimeout: BEATS_PER_TIMEOUT,
    jitter: HEARTBEAT_JITTER,
    /** The server timeout assumed when it is unknown. */
    assumedTimeoutMs: ASSUMED_HEARTBEAT_TIMEOUT_MS,
    localTimeoutBufferMs: LOCAL_TIMEOUT_BUFFER_MS,
  }),
  /** `runTool`, `runToolLoop`, `client.sessions.create({ tools })` and `workerHandler`. */
  tools: /* @__PURE__ */ Object.freeze({
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    maxReportAttempts: MAX_REPORT_ATTEMPTS,
    maxSteps: DEFAULT_MAX_STEPS,
    concurrency: DEFAULT_TOOL_CONCURRENCY,
    maxRememberedSessions: MAX_REMEMBERED_SESSIONS,
    abortGraceMs: DEFAULT_ABORT_GRACE_MS,
  }),
  /** The `recover` option of `messages.send`, `messages.stream` and `runToolLoop`; its waits are `retry`'s backoff. */
  recover: /* @__PURE__ */ Object.freeze({
    maxAttempts: DEFAULT_RECOVER_MAX_ATTEMPTS,
  }),
});
