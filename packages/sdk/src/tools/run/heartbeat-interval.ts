import {
  BEATS_PER_TIMEOUT,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_JITTER,
  MAX_HEARTBEAT_INTERVAL_MS,
  MIN_HEARTBEAT_INTERVAL_MS,
} from '../../defaults.js';

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
