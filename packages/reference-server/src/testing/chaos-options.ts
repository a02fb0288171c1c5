import { checkOptions, type OptionKeys } from '../utils/check-options.js';
import { type Fault, validateFault } from './fault.js';
import { matchesPath, type PathPattern } from './path-pattern.js';
import { checkRequestMatch } from './request-match.js';

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

/**
 * Every key of {@link ChaosOptions}, with its type: a new chaos option is one more line here
 * (TypeScript fails until it is).
 */
export const CHAOS_OPTION_KEYS = {
  rate: 'number',
  seed: 'number',
  kinds: 'array',
  match: 'object',
  status: true,
  retryAfterSeconds: 'number',
  cutAfterEvents: 'number',
  latency: 'object',
} as const satisfies OptionKeys<ChaosOptions>;

/**
 * Checks chaos options given from code or the CLI; throws a TypeError naming the bad one. The
 * ranges are the fault header's (status 400-599, latency up to an hour, ...): `validateFault` checks them.
 */
export function validateChaos(options: ChaosOptions): ChaosOptions {
  checkOptions(options, CHAOS_OPTION_KEYS, 'chaos');
  checkRequestMatch(options.match, 'chaos');
  const { rate, seed, kinds, status, latency: l } = options;
  const fail = (why: string): never => {
    throw new TypeError(`Chaos ${why}`);
  };
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) fail('rate must be a number from 0 to 1');
  if (!Number.isSafeInteger(seed)) fail('seed must be an integer');
  const unknown = kinds?.find((kind) => !CHAOS_KINDS.includes(kind));
  if (kinds !== undefined && (!Array.isArray(kinds) || kinds.length === 0 || unknown !== undefined)) {
    fail(`kinds must list one or more of ${CHAOS_KINDS.join(', ')}${unknown ? `, not "${unknown}"` : ''}`);
  }
  const statuses = typeof status === 'number' ? [status] : (status ?? []);
  if (status !== undefined && statuses.length === 0) fail('status must name at least one status');
  const distribution = l?.distribution;
  if (
    l !== undefined &&
    distribution !== 'fixed' &&
    distribution !== 'uniform' &&
    distribution !== 'lognormal'
  ) {
    fail(`latency distribution "${String(distribution)}" is not fixed, uniform or lognormal`);
  }
  const waits = l === undefined ? [] : 'ms' in l ? [l.ms] : 'minMs' in l ? [l.minMs, l.maxMs] : [l.medianMs];
  const faults: Fault[] = [
    ...statuses.map((s) => ({ status: s })),
    ...waits.map((ms) => ({ latencyMs: ms })),
    {
      ...(options.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: options.retryAfterSeconds }),
      ...(options.cutAfterEvents === undefined ? {} : { cutAfterEvents: options.cutAfterEvents }),
    },
  ];
  try {
    for (const fault of faults) validateFault(fault);
  } catch (error) {
    fail(`${(error as Error).message.replace(/^Fault /, '')}`);
  }
  if (l?.distribution === 'uniform' && l.minMs > l.maxMs) fail('latency minMs must be at most maxMs');
  if (l?.distribution === 'lognormal' && !(l.sigma >= 0 && l.sigma <= 10)) {
    fail('latency sigma must be a number from 0 to 10');
  }
  return options;
}

/** Chaos options checked, with every default filled in: what the drawing works with. */
export interface ResolvedChaos {
  rate: number;
  seed: number;
  kinds: readonly ChaosKind[];
  statuses: readonly number[];
  retryAfterSeconds: number;
  cutAfterEvents: number;
  latency: LatencyDistribution;
}

/** Checks the options (a TypeError naming a bad one) and fills in the defaults. */
export function resolveChaos(options: ChaosOptions): ResolvedChaos {
  const o = validateChaos(options);
  return {
    rate: o.rate,
    seed: o.seed,
    kinds: [...(o.kinds ?? CHAOS_KINDS)],
    statuses: o.status === undefined ? [503] : typeof o.status === 'number' ? [o.status] : [...o.status],
    retryAfterSeconds: o.retryAfterSeconds ?? 1,
    cutAfterEvents: o.cutAfterEvents ?? 3,
    latency: o.latency ?? { distribution: 'fixed', ms: 1000 },
  };
}

/** Whether chaos applies to this request. */
export function chaosMatches(options: ChaosOptions, method: string, pathname: string): boolean {
  const { match } = options;
  return (
    (match?.method === undefined || match.method.toUpperCase() === method.toUpperCase()) &&
    (match?.path === undefined || matchesPath(match.path, pathname))
  );
}
