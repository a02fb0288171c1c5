import {
  BEATS_PER_TIMEOUT,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_JITTER,
  LOCAL_TIMEOUT_BUFFER_MS,
  MAX_HEARTBEAT_INTERVAL_MS,
  MIN_HEARTBEAT_INTERVAL_MS,
} from '../../defaults.js';
import { MAX_TIMER_MS } from '../../internal/timer-delay.js';

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
 * The lease a server timeout names, as the heartbeat's timers can keep it: undefined for none (not a
 * positive number); one longer than the longest timer (about 24.8 days, less the local buffer) is
 * kept as that long, since a timer given more fires at once. Shorter is safe: the beats renew the
 * lease long before either ends.
 */
export function keptLeaseMs(timeoutMs: number | undefined): number | undefined {
  if (timeoutMs === undefined || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return undefined;
  return Math.min(timeoutMs, MAX_TIMER_MS - LOCAL_TIMEOUT_BUFFER_MS);
}
