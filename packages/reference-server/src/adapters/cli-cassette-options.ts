import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../cassette/cassette-expiry.js';

// The cassette flags besides --replay and --record: record-missing and a cassette's age.

/** `--cassette-expires-in`: a duration such as 30d (checked here, kept as written). */
export function parseExpiresIn(value: string): string {
  try {
    parseDuration(value, 'the duration');
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
  return value;
}

/** The values of the cassette flags. */
export interface CliCassetteOptions {
  recordMissing?: string;
  cassetteExpiresIn?: string;
  cassetteExpiry?: 'warn' | 'error' | 'record';
}

/** The cassette flags' specs (`CliOptionSpec`s: cli-options.ts lists them after --record-redact). */
export const CASSETTE_CLI_OPTIONS = [
  {
    flags: '--record-missing <file>',
    description:
      'replay this cassette and record what it lacks (a session, a turn past the recorded ones) from --upstream, written when the server stops',
    env: 'PARLEY_RECORD_MISSING_FILE',
  },
  {
    flags: '--cassette-expires-in <duration>',
    description: 'a cassette recorded longer ago than this (e.g. 30d; units ms, s, m, h, d, w) is expired',
    env: 'PARLEY_CASSETTE_EXPIRES_IN',
    parse: parseExpiresIn,
  },
  {
    flags: '--cassette-expiry <strategy>',
    description:
      'an expired cassette: warn (replay it), error (exit 2) or record (again, through --upstream)',
    env: 'PARLEY_CASSETTE_EXPIRY',
    parse: (value: string) => {
      if (value === 'warn' || value === 'error' || value === 'record') return value;
      throw new InvalidArgumentError('must be one of warn, error, record.');
    },
    default: 'warn',
  },
] as const;
