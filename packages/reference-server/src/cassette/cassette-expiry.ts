import type { Cassette } from './cassette-format.js';

/** What an expired cassette does: a warning line, an error at start, or a new recording. */
export type ExpiryStrategy = 'warn' | 'error' | 'record';

/** How old a cassette may be before it counts as stale (Polly.js's `expiresIn` and `expiryStrategy`). */
export interface CassetteExpiry {
  /**
   * A cassette recorded longer ago than this is expired: a whole number and a unit, `ms`, `s`,
   * `m`, `h`, `d` or `w` (e.g. `'30d'`). Age is read from its `recordedAt` on the server's clock;
   * a cassette without `recordedAt` (recorded before Parley 0.1.0) counts as expired. Default: never.
   */
  expiresIn?: string;
  /**
   * An expired cassette: `'warn'` (default) replays it and prints a warning; `'error'` fails the
   * start; `'record'` records it again through `upstream` (which it then needs).
   */
  expiryStrategy?: ExpiryStrategy;
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const STRATEGIES: readonly string[] = ['warn', 'error', 'record'];

/** `'30d'` → milliseconds. Throws a TypeError naming the value for anything else. */
export function parseDuration(value: string, what = 'expiresIn'): number {
  const match = /^(\d+)(ms|s|m|h|d|w)$/.exec(typeof value === 'string' ? value.trim() : '');
  const ms = match === null ? Number.NaN : Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? Number.NaN);
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw new TypeError(
      `${what} ${JSON.stringify(value)} is not a duration: use a whole number and a unit, ms, s, m, h, d or w (e.g. '30d')`,
    );
  }
  return ms;
}

/** Checks the expiry settings at start: a malformed duration or an unknown strategy throws. */
export function checkExpiry(expiry: CassetteExpiry): {
  maxAgeMs: number | undefined;
  strategy: ExpiryStrategy;
} {
  const strategy = expiry.expiryStrategy ?? 'warn';
  if (!STRATEGIES.includes(strategy)) {
    throw new TypeError(
      `expiryStrategy ${JSON.stringify(strategy)} is not a strategy: use warn, error or record`,
    );
  }
  return {
    maxAgeMs: expiry.expiresIn === undefined ? undefined : parseDuration(expiry.expiresIn),
    strategy,
  };
}

/** A cassette older than its `expiresIn` under `expiryStrategy: 'error'`. */
export class CassetteExpiredError extends Error {
  override name = 'CassetteExpiredError' as const;
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why the cassette is expired at `now` (Unix ms), or undefined while it is fresh (or has no
 * `expiresIn`): `Cassette x.json was recorded 2025-01-01T00:00:00.000Z, 45 days ago: older than expiresIn 30d`.
 */
export function expiryReason(
  cassette: Pick<Cassette, 'recordedAt'>,
  name: string,
  expiry: CassetteExpiry,
  now: number,
): string | undefined {
  const { maxAgeMs } = checkExpiry(expiry);
  if (maxAgeMs === undefined) return undefined;
  if (cassette.recordedAt === undefined) {
    return `Cassette ${name} has no recordedAt (recorded before Parley 0.1.0), so its age is unknown: it counts as older than expiresIn ${expiry.expiresIn}`;
  }
  const age = now - Date.parse(cassette.recordedAt);
  if (age <= maxAgeMs) return undefined;
  return `Cassette ${name} was recorded ${cassette.recordedAt}, ${describeAge(age)} ago: older than expiresIn ${expiry.expiresIn}`;
}

/**
 * What to do with the cassette at start: `'replay'` (fresh, or expired under `'warn'`, which
 * `warn` is told), or `'record'` (expired under `'record'`). Expired under `'error'` throws
 * {@link CassetteExpiredError}.
 */
export function expiryVerdict(
  cassette: Pick<Cassette, 'recordedAt'>,
  name: string,
  expiry: CassetteExpiry,
  now: number,
  warn: (line: string) => void,
): 'replay' | 'record' {
  const { strategy } = checkExpiry(expiry);
  const reason = expiryReason(cassette, name, expiry, now);
  if (reason === undefined) return 'replay';
  if (strategy === 'error') {
    throw new CassetteExpiredError(name, `${reason}. Record it again (PARLEY_CASSETTE_MODE=record)`);
  }
  if (strategy === 'record') return 'record';
  warn(`[parley] ${reason}: replayed anyway; record it again (PARLEY_CASSETTE_MODE=record)`);
  return 'replay';
}

function describeAge(ms: number): string {
  const days = Math.floor(ms / UNIT_MS.d!);
  if (days >= 1) return `${days} day${days === 1 ? '' : 's'}`;
  const hours = Math.floor(ms / UNIT_MS.h!);
  if (hours >= 1) return `${hours} hour${hours === 1 ? '' : 's'}`;
  return `${Math.max(0, Math.floor(ms / 1000))} seconds`;
}
