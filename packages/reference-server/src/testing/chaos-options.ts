import { matchesPath, type PathPattern } from './path-pattern.js';

/** The faults seeded chaos can give. */
export const CHAOS_KINDS = ['status', 'drop', 'cut-after', 'malformed', 'latency'] as const;
export type ChaosKind = (typeof CHAOS_KINDS)[number];

/** How long the `latency` kind waits, in server-clock milliseconds. */
export type LatencyDistribution =
  | { distribution: 'fixed'; ms: number }
  /** Any value from `minMs` to `maxMs`, each as likely. */
  | { distribution: 'uniform'; minMs: number; maxMs: number }
  /** Most waits near `medianMs`, a few much longer (a long tail, as real latency has); `sigma` > 0 widens it. */
  | { distribution: 'lognormal'; medianMs: number; sigma: number };

/**
 * Seeded chaos (`server.faults.chaos(...)`, the `chaos` server option, `--chaos`): a share of the
 * matching requests get a fault of one of the given kinds. The same seed and the same requests give
 * the same faults, counted per session: a request's fate depends on what it is (method, path
 * template) and how many such requests its session made before, not on other sessions or on time.
 */
export interface ChaosOptions {
  /** The share of matching requests that get a fault, from 0 to 1 (e.g. `0.05`). */
  rate: number;
  /** Any integer; the same seed gives the same faults for the same requests. */
  seed: number;
  /** The kinds to draw from, each as likely. Default: all of {@link CHAOS_KINDS}. */
  kinds?: readonly ChaosKind[];
  /** Which requests it applies to; default: any request outside the control routes. */
  match?: { method?: string; path?: PathPattern };
  /** `status`: the HTTP status (400-599), or several to draw from. Default 503. */
  status?: number | readonly number[];
  /** `status`: the `Retry-After` header in seconds. Default 1. */
  retryAfterSeconds?: number;
  /** `cut-after` (streamed replies only): the body ends after this many events. Default 3. */
  cutAfterEvents?: number;
  /** `latency`: the wait before the response (or a stream's first event). Default fixed 1000 ms. */
  latency?: LatencyDistribution;
}

/** Longest latency chaos draws (an hour), as the fault header allows. */
export const MAX_CHAOS_LATENCY_MS = 3_600_000;

/** Checks chaos options given from code or the CLI; throws a TypeError naming the bad one. */
export function validateChaos(options: ChaosOptions): ChaosOptions {
  const bad = (what: string) => new TypeError(`Chaos ${what}`);
  const { rate, seed, kinds, status, retryAfterSeconds, cutAfterEvents, latency } = options;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) throw bad('rate must be a number from 0 to 1');
  if (!Number.isSafeInteger(seed)) throw bad('seed must be an integer');
  if (kinds !== undefined) {
    if (!Array.isArray(kinds) || kinds.length === 0)
      throw bad(`kinds must list one or more of ${CHAOS_KINDS.join(', ')}`);
    for (const kind of kinds) {
      if (!CHAOS_KINDS.includes(kind))
        throw bad(`kind "${String(kind)}" is not one of ${CHAOS_KINDS.join(', ')}`);
    }
  }
  const statuses = status === undefined ? [] : typeof status === 'number' ? [status] : status;
  if (status !== undefined && statuses.length === 0) throw bad('status must name at least one status');
  for (const s of statuses)
    if (!isInt(s, 400, 599)) throw bad(`status ${String(s)} must be an integer from 400 to 599`);
  if (retryAfterSeconds !== undefined && !isInt(retryAfterSeconds, 0, 86_400)) {
    throw bad('retryAfterSeconds must be an integer from 0 to 86400');
  }
  if (cutAfterEvents !== undefined && !isInt(cutAfterEvents, 0, 1_000_000)) {
    throw bad('cutAfterEvents must be an integer from 0 to 1000000');
  }
  if (latency !== undefined) validateLatency(latency);
  return options;
}

function validateLatency(latency: LatencyDistribution): void {
  const ms = (value: unknown) => isInt(value, 0, MAX_CHAOS_LATENCY_MS);
  const range = `an integer from 0 to ${MAX_CHAOS_LATENCY_MS}`;
  if (latency.distribution === 'fixed') {
    if (!ms(latency.ms)) throw new TypeError(`Chaos latency ms must be ${range}`);
  } else if (latency.distribution === 'uniform') {
    if (!ms(latency.minMs) || !ms(latency.maxMs) || latency.minMs > latency.maxMs) {
      throw new TypeError(`Chaos latency minMs and maxMs must be ${range}, minMs <= maxMs`);
    }
  } else if (latency.distribution === 'lognormal') {
    if (!ms(latency.medianMs)) throw new TypeError(`Chaos latency medianMs must be ${range}`);
    if (typeof latency.sigma !== 'number' || !(latency.sigma >= 0 && latency.sigma <= 10)) {
      throw new TypeError('Chaos latency sigma must be a number from 0 to 10');
    }
  } else {
    const given = (latency as { distribution?: unknown }).distribution;
    throw new TypeError(`Chaos latency distribution "${String(given)}" is not fixed, uniform or lognormal`);
  }
}

/** Whether chaos applies to this request. */
export function chaosMatches(options: ChaosOptions, method: string, pathname: string): boolean {
  const { match } = options;
  return (
    (match?.method === undefined || match.method.toUpperCase() === method.toUpperCase()) &&
    (match?.path === undefined || matchesPath(match.path, pathname))
  );
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
