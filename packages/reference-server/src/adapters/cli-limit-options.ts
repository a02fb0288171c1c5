import { InvalidArgumentError } from 'commander';

/** The limits of a long-lived shared server, as flags. */
export interface CliLimitOptions {
  /** `--max-sessions`: sessions kept at most; none when unset. */
  maxSessions?: number;
}

/** A count: a positive integer. */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError('must be a positive integer.');
  }
  return n;
}

/** The limit flags' specs (`CliOptionSpec`s: cli-options.ts lists them after --tool-call-timeout-ms). */
export const LIMIT_CLI_OPTIONS = [
  {
    flags: '--max-sessions <n>',
    description:
      'sessions kept at most, of all users and test scopes (a long-lived shared server); beyond, a create is 503 session_limit_reached',
    env: 'PARLEY_MAX_SESSIONS',
    parse: parseCount,
  },
];
